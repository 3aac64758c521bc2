// The organisation dashboard's reads at real volumes (docs/decisions.md, "Dashboard: indexes for real
// volumes"; the dashboard targets in bench/README.md): each index serves one page whose plan, without it,
// read every row of the organisation in its table.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardVolumes1795900000000 implements MigrationInterface {
  name = 'DashboardVolumes1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A user's KYC history (the user page): the organisation's KYC events of one orgUserId, newest first.
    await queryRunner.query(
      `CREATE INDEX "events_org_user_kyc" ON "events" ("org_id", ("data"->>'orgUserId'), "created_at", "id") WHERE "entity" = 'Users' AND "event_type" IS NOT NULL`,
    );
    // ...and the operator's text on each of its decisions, joined by event.
    await queryRunner.query(`CREATE INDEX "kyc_reviews_event" ON "kyc_reviews" ("event_id")`);
    // The overview's webhook health: the attempts of the last 24 hours.
    await queryRunner.query(
      `CREATE INDEX "webhook_attempts_org_attempted" ON "webhook_attempts" ("org_id", "attempted_at")`,
    );
    // The orders page filtered by a user's orgUserId, newest first.
    await queryRunner.query(`CREATE INDEX "orders_org_user" ON "orders" ("org_id", "org_user_id", "id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "orders_org_user"`);
    await queryRunner.query(`DROP INDEX "webhook_attempts_org_attempted"`);
    await queryRunner.query(`DROP INDEX "kyc_reviews_event"`);
    await queryRunner.query(`DROP INDEX "events_org_user_kyc"`);
  }
}
