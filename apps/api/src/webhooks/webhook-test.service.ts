// A test event (docs/dashboard.md#webhook): one example body of the event catalogue, signed with the
// endpoint's secret and sent at once through the same sender and address rules as real deliveries. It is not
// an event of the organisation: nothing is stored or retried, and the answer is shown to whoever sent it.
import { randomUUID } from 'node:crypto';

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type AttemptResult, WebhookSender } from '@svc/webhook-sender';

import { badRequest, conflict } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { catalogueEntry } from '../event-log/event-catalogue.js';
import { WebhookSecretService } from './webhook-secret.service.js';

export interface TestDelivery {
  readonly key: string;
  readonly url: string;
  readonly eventId: string;
  readonly body: string;
  readonly result: AttemptResult;
}

@Injectable()
export class WebhookTestService implements OnApplicationShutdown {
  private readonly sender: WebhookSender;

  constructor(
    private readonly secrets: WebhookSecretService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sender = new WebhookSender({ policy: config.webhooks.receivers });
  }

  /** Sends the catalogue's example of `key` (e.g. `Users`, `Users/KYC_COMPLETED`) to the endpoint. */
  async send(orgId: number, key: string): Promise<TestDelivery> {
    const entry = catalogueEntry(key);
    if (!entry)
      throw badRequest(`eventType: ${JSON.stringify(key.slice(0, 100))} is not in the event catalogue`);
    const endpoint = await this.secrets.forSigning(orgId);
    if (!endpoint) throw conflict('no webhook is registered: register one first');
    const body = JSON.stringify(entry.example(orgId));
    const eventId = randomUUID();
    const result = await this.sender.send({
      url: new URL(endpoint.url),
      body,
      secret: endpoint.secret,
      eventId,
    });
    return { key, url: endpoint.url, eventId, body, result };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }
}
