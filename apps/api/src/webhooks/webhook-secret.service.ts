// The webhook secret shown again on demand (docs/dashboard.md#webhook): decrypted from the endpoint's row,
// and every showing audited in the same transaction as its read, so no showing goes unrecorded.
import { Inject, Injectable } from '@nestjs/common';
import { decryptSecret, transaction } from '@svc/db';
import { DataSource } from 'typeorm';

import type { AuditActor } from '../audit/admin-actor.decorator.js';
import { AuditService } from '../audit/audit.service.js';
import { notFound } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { WebhooksRepository } from './webhooks.repository.js';

@Injectable()
export class WebhookSecretService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The endpoint's secret in clear, for `actor` to see; audited as `webhook.secret-reveal`. */
  reveal(orgId: number, actor: AuditActor): Promise<string> {
    return transaction(this.dataSource, async (manager) => {
      const endpoint = await this.webhooks.findEndpoint(orgId);
      if (!endpoint) throw notFound('no webhook is registered');
      await this.audit.record(manager, {
        actor,
        action: 'webhook.secret-reveal',
        orgId,
        details: { url: endpoint.url },
      });
      return decryptSecret(this.config.masterKey, endpoint.secretCiphertext);
    });
  }

  /** The secret for signing a request the api sends itself (never shown, so not audited). */
  async forSigning(orgId: number): Promise<{ url: string; secret: string } | null> {
    const endpoint = await this.webhooks.findEndpoint(orgId);
    return (
      endpoint && {
        url: endpoint.url,
        secret: decryptSecret(this.config.masterKey, endpoint.secretCiphertext),
      }
    );
  }
}
