// The dashboard's events pages (docs/dashboard.md#events; docs/decisions.md, "Dashboard: events and
// deliveries"): each attempt records the event's updatedAt its body carried, so an attempt's request can be
// shown byte for byte; the events list's filters and the latest recovery read indexes of their own.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardEvents1796000000000 implements MigrationInterface {
  name = 'DashboardEvents1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Null for the attempts made before this column: their body's updatedAt was not kept.
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD "event_updated_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
    // The events page's filters (status, entity, KYC event type) when their value is rare (FAILED, a
    // SystemInformation notice, a type that never occurred): without it the newest-first scan of
    // events_org_created reads the organisation's every event to find none. A common value still walks
    // events_org_created; a rare one reads its few rows here and sorts them. One index for the three, since
    // every index on events is paid for by every event written (docs/decisions.md, "Dashboard: indexes for
    // real volumes").
    await queryRunner.query(
      `CREATE INDEX "events_org_filters" ON "events" ("org_id", "status", "entity", "event_type", "created_at", "position")`,
    );
    // Which event types go with which entity (KYC types with Users only): without it the planner takes the
    // two filters as independent, expects Orders with a KYC type to be common, and walks every event.
    await queryRunner.query(
      `CREATE STATISTICS "events_entity_event_type" (dependencies, mcv) ON "entity", "event_type" FROM "events"`,
    );
    // The events page's latest recovery of the organisation.
    await queryRunner.query(
      `CREATE INDEX "webhook_recoveries_org_created" ON "webhook_recoveries" ("org_id", "created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhook_recoveries_org_created"`);
    await queryRunner.query(`DROP STATISTICS "events_entity_event_type"`);
    await queryRunner.query(`DROP INDEX "events_org_filters"`);
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP COLUMN "event_updated_at"`);
  }
}
