// An organisation's webhook endpoint (docs/decisions.md, "Webhooks: registration and endpoint changes"):
// registration runs the signed challenge (docs/api-guide.md#registration-and-the-challenge) through the same
// sender and address rules as the worker's deliveries.
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type WebhookEndpoint, encryptSecret } from '@svc/db';
import {
  ReceiverRefusedError,
  WebhookSender,
  checkReceiverUrl,
  hostName,
  runChallenge,
} from '@svc/webhook-sender';
import { DataSource } from 'typeorm';

import { badRequest, conflict, forbidden, notFound } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OrgsService } from '../orgs/orgs.service.js';
import type { RegisterWebhookDto } from './dto/register-webhook.dto.js';
import { WebhookHealthService } from './webhook-health.service.js';
import { webhookView, type WebhookView } from './webhook.view.js';
import { WebhooksRepository } from './webhooks.repository.js';

@Injectable()
export class WebhooksService implements OnApplicationShutdown {
  private readonly sender: WebhookSender;

  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly orgs: OrgsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly health: WebhookHealthService,
  ) {
    this.sender = new WebhookSender({ policy: config.webhooks.receivers });
  }

  /**
   * Registers the organisation's one endpoint, or changes its url or secret
   * (docs/api-guide.md#changing-the-url-or-the-secret): the challenge runs against the new one, and only a
   * passed challenge replaces an ACTIVE endpoint; a failed one leaves it as it was and answers 409 saying
   * why. Without an ACTIVE endpoint, a failed challenge is stored as CHALLENGE_FAILED with its reason.
   */
  async register(orgId: number, input: RegisterWebhookDto): Promise<WebhookView> {
    const org = await this.orgs.find(this.dataSource.manager, orgId);
    if (org.plan !== 'ENTERPRISE') {
      throw forbidden('webhooks are offered on the ENTERPRISE plan only');
    }
    let url: URL;
    try {
      url = checkReceiverUrl(input.url, org.kycDomain, this.config.webhooks.receivers);
      await this.sender.vet(hostName(url));
    } catch (error) {
      if (error instanceof ReceiverRefusedError) throw badRequest(`url: ${error.message}`);
      throw error;
    }
    const challenge = await runChallenge(this.sender, url, input.secret);
    if (!challenge.passed) this.metrics.challengeFailed(challenge);
    const refused = challenge.attempt.errorKind;
    if (refused === 'blocked_address' || refused === 'dns_failure') {
      throw badRequest(`url: ${challenge.attempt.response}`);
    }
    const endpoint = await this.webhooks.saveEndpoint(
      {
        orgId,
        url: url.toString(),
        secretCiphertext: encryptSecret(this.config.masterKey, input.secret),
        status: challenge.passed ? 'ACTIVE' : 'CHALLENGE_FAILED',
        challengeError: challenge.reason,
      },
      { replaceActive: challenge.passed },
    );
    if (endpoint) return webhookView(endpoint, await this.health.ofOrg(orgId));
    const kept = await this.webhooks.findEndpoint(orgId);
    throw conflict(
      `the new endpoint did not pass its challenge (${challenge.reason ?? 'no reason'}), so the ACTIVE ` +
        `endpoint${kept ? ` ${kept.url}` : ''} is unchanged and still receives events`,
    );
  }

  async get(orgId: number): Promise<WebhookView> {
    const endpoint = await this.find(orgId);
    return webhookView(endpoint, await this.health.ofOrg(orgId));
  }

  async remove(orgId: number): Promise<{ url: string; deleted: true }> {
    const endpoint = await this.find(orgId);
    await this.webhooks.deleteEndpoint(endpoint);
    return { url: endpoint.url, deleted: true };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }

  private async find(orgId: number): Promise<WebhookEndpoint> {
    const endpoint = await this.webhooks.findEndpoint(orgId);
    if (!endpoint) throw notFound('no webhook is registered');
    return endpoint;
  }
}
