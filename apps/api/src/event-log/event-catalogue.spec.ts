import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  ACTIONS_DATA_SCHEMA,
  ENTITY_NAMES,
  KYC_EVENT_TYPES,
  ORDER_SCHEMA,
  parseWebhookEvent,
  SYSTEM_INFORMATION_DATA_SCHEMA,
  USER_SCHEMA,
} from '@svc/protocol';

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

  it("describes data with the protocol's record schemas, and gives every field of them an example", () => {
    const data = (key: string) => (catalogueEntry(key)!.schema.properties as { data: unknown }).data;
    expect(data('Users')).toEqual(USER_SCHEMA);
    expect(data('Orders')).toEqual(ORDER_SCHEMA);
    expect(data('Actions')).toEqual(ACTIONS_DATA_SCHEMA);
    expect(data('SystemInformation')).toEqual(SYSTEM_INFORMATION_DATA_SCHEMA);
    expect(Object.keys(catalogueEntry('Orders')!.example(1).data)).toEqual(
      Object.keys(ORDER_SCHEMA.properties),
    );
  });

  it('refuses, by its schema, a body of another kind (the schemas tell the kinds apart)', () => {
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const completed = ajv.compile(catalogueEntry('Users/KYC_COMPLETED')!.schema);
    expect(completed(catalogueEntry('Users/KYC_REJECTED')!.example(1))).toBe(false);
    expect(completed(catalogueEntry('Orders')!.example(1))).toBe(false);
    expect(catalogueEntry('Nope')).toBeUndefined();
  });
});
