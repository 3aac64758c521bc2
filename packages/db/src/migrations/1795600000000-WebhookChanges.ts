// Endpoint changes, recovery and Retry-After (docs/decisions.md, "Webhooks: a receiver's Retry-After"): an
// endpoint's pause when its receiver asked for time, and the organisations' recoveries with their events.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookChanges1795600000000 implements MigrationInterface {
  name = 'WebhookChanges1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "paused_until" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE TABLE "webhook_recoveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" integer NOT NULL, "since" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "status" text NOT NULL DEFAULT 'PENDING', "total" integer NOT NULL DEFAULT '0', "delivered" integer NOT NULL DEFAULT '0', "failed" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP(3) WITH TIME ZONE, "completed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_2ded0f405d911dfa29606366829" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_recoveries_unfinished" ON "webhook_recoveries"  ("org_id") WHERE "status" <> 'COMPLETED'`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_recovery_items" ("recovery_id" uuid NOT NULL, "event_id" uuid NOT NULL, "outcome" text, CONSTRAINT "PK_f0aa91ca003062ed9d4a295bab5" PRIMARY KEY ("recovery_id", "event_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_recovery_items_event" ON "webhook_recovery_items"  ("event_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_recoveries" ADD CONSTRAINT "FK_03500fbea81423a224fb115c39f" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_recovery_items" ADD CONSTRAINT "FK_a63677c78cd275ce1fbf9a20717" FOREIGN KEY ("recovery_id") REFERENCES "webhook_recoveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_recovery_items" ADD CONSTRAINT "FK_86178c9af555e8766ae4eee829a" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_recovery_items" DROP CONSTRAINT "FK_86178c9af555e8766ae4eee829a"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_recovery_items" DROP CONSTRAINT "FK_a63677c78cd275ce1fbf9a20717"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_recoveries" DROP CONSTRAINT "FK_03500fbea81423a224fb115c39f"`,
    );
    await queryRunner.query(`DROP INDEX "public"."webhook_recovery_items_event"`);
    await queryRunner.query(`DROP TABLE "webhook_recovery_items"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_recoveries_unfinished"`);
    await queryRunner.query(`DROP TABLE "webhook_recoveries"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "paused_until"`);
  }
}
