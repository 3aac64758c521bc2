// The charts of the dashboard's overview and the console's home, and the events list's search by user or
// order (docs/decisions.md, "Web pages: charts drawn on the server"; bench/README.md, dashboard): each
// index serves one read that would otherwise walk every row of an organisation, or of every organisation.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ActivityAndSearch1797400000000 implements MigrationInterface {
  name = 'ActivityAndSearch1797400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Every organisation's attempts of the last 24 hours and 7 days (the console's home).
    await queryRunner.query(
      `CREATE INDEX "webhook_attempts_attempted" ON "webhook_attempts" ("attempted_at")`,
    );
    // Orders per day of the last 30 days: one organisation's (the overview) and every one's (the console).
    await queryRunner.query(`CREATE INDEX "orders_org_created" ON "orders" ("org_id", "created_at")`);
    await queryRunner.query(`CREATE INDEX "orders_created" ON "orders" ("created_at")`);
    // The events a user concerns (Users and Orders events name it in data.orgUserId), newest first.
    await queryRunner.query(
      `CREATE INDEX "events_org_user" ON "events" ("org_id", ("data"->>'orgUserId'), "created_at", "position") WHERE ("data"->>'orgUserId') IS NOT NULL`,
    );
    // The events of one order (an Orders event's data is the order: its id), newest first.
    await queryRunner.query(
      `CREATE INDEX "events_org_order" ON "events" ("org_id", ("data"->>'id'), "created_at", "position") WHERE "entity" = 'Orders'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "events_org_order"`);
    await queryRunner.query(`DROP INDEX "events_org_user"`);
    await queryRunner.query(`DROP INDEX "orders_created"`);
    await queryRunner.query(`DROP INDEX "orders_org_created"`);
    await queryRunner.query(`DROP INDEX "webhook_attempts_attempted"`);
  }
}
