// Redeliveries as due rows (docs/decisions.md, "Webhooks: one queue for every attempt"): an attempt asked
// for outside the retry schedule is a row the worker takes as it takes due PENDING events, not a pg-boss
// job. Redeliveries still waiting as jobs when this runs move into the table.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Redeliveries1796700000000 implements MigrationInterface {
  name = 'Redeliveries1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_redeliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "event_id" uuid NOT NULL, "recovery_id" uuid, "due_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_webhook_redeliveries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "webhook_redeliveries_due" ON "webhook_redeliveries" ("due_at")`);
    await queryRunner.query(
      `CREATE INDEX "webhook_redeliveries_event" ON "webhook_redeliveries" ("event_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_redeliveries" ADD CONSTRAINT "FK_c6c74db9d168f0d465b4960ed5d" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_redeliveries" ADD CONSTRAINT "FK_33c97b8365a1f30acca4a914063" FOREIGN KEY ("recovery_id") REFERENCES "webhook_recoveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    const [boss] = (await queryRunner.query(`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`)) as {
      present: boolean;
    }[];
    if (boss?.present) {
      await queryRunner.query(
        `INSERT INTO "webhook_redeliveries" ("event_id", "recovery_id")
         SELECT e.id, r.id FROM pgboss.job j
           JOIN "events" e ON e.id::text = j.data->>'eventId'
           LEFT JOIN "webhook_recoveries" r ON r.id::text = j.data->>'recoveryId'
          WHERE j.name = 'webhook-delivery' AND j.state IN ('created', 'retry', 'active')
            AND j.data->>'manual' = 'true'`,
      );
      await queryRunner.query(`DELETE FROM pgboss.job WHERE name = 'webhook-delivery'`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_redeliveries"`);
  }
}
