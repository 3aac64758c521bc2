import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ENTITY_NAMES, KYC_EVENT_TYPES, parseWebhookEvent } from '@svc/protocol';

import { catalogueEntry, EVENT_CATALOGUE } from './event-catalogue.js';

describe('the event catalogue', () => {
  it('has every entity and every KYC eventType once', () => {
    expect(EVENT_CATALOGUE.map((entry) => entry.key).sort()).toEqual(
      [...ENTITY_NAMES, ...KYC_EVENT_TYPES.map((type) => `Users/${type}`)].sort(),
    );
  });

  it.each(EVENT_CATALOGUE.map((entry) => [entry.key, entry] as const))(
    '%s: the example is a valid event for its organisation and matches its own schema',
    (_key, entry) => {
      const example = entry.example(42);
      const parsed = parseWebhookEvent(JSON.parse(JSON.stringify(example)));
      expect(parsed.event).toMatchObject({ orgId: 42, entity: entry.entity });
      expect(parsed.event.eventType).toBe(entry.eventType);
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      addFormats(ajv);
      const validate = ajv.compile(entry.schema);
      expect([validate(example), validate.errors]).toEqual([true, null]);
    },
  );

  it('refuses, by its schema, a body of another kind (the schemas tell the kinds apart)', () => {
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const completed = ajv.compile(catalogueEntry('Users/KYC_COMPLETED')!.schema);
    expect(completed(catalogueEntry('Users/KYC_REJECTED')!.example(1))).toBe(false);
    expect(completed(catalogueEntry('Orders')!.example(1))).toBe(false);
    expect(catalogueEntry('Nope')).toBeUndefined();
  });
});
