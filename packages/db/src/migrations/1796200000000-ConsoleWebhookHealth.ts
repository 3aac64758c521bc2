// The operator console's webhook health across organisations (docs/console.md; docs/decisions.md, "Console:
// administration"): each organisation's last failed event and its failures of the last 24 hours read from the
// end of (org_id, failed_at); the latest failures of every organisation from the end of (failed_at). Without
// them, each read scanned webhook_failures whole.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ConsoleWebhookHealth1796200000000 implements MigrationInterface {
  name = 'ConsoleWebhookHealth1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "webhook_failures_org_failed" ON "webhook_failures" ("org_id", "failed_at")`,
    );
    await queryRunner.query(`CREATE INDEX "webhook_failures_failed" ON "webhook_failures" ("failed_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhook_failures_failed"`);
    await queryRunner.query(`DROP INDEX "webhook_failures_org_failed"`);
  }
}
