// The dashboard's events pages (docs/dashboard.md#events; docs/decisions.md, "Dashboard: events and
// deliveries"): each attempt records the event's updatedAt its body carried, so an attempt's request can
// be shown byte for byte; and the events list filtered by delivery status reads an index of its own.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardEvents1796000000000 implements MigrationInterface {
  name = 'DashboardEvents1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Null for the attempts made before this column: their body's updatedAt was not kept.
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD "event_updated_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
    // The events page with a status filter (FAILED is rare): newest first within the status.
    await queryRunner.query(
      `CREATE INDEX "events_org_status_created" ON "events" ("org_id", "status", "created_at", "position")`,
    );
    // The events page's latest recovery of the organisation.
    await queryRunner.query(
      `CREATE INDEX "webhook_recoveries_org_created" ON "webhook_recoveries" ("org_id", "created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhook_recoveries_org_created"`);
    await queryRunner.query(`DROP INDEX "events_org_status_created"`);
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP COLUMN "event_updated_at"`);
  }
}
