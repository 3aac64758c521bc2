// Webhooks: each organisation's endpoint, the log of delivery attempts, and failed events waiting for
// their e-mail (docs/decisions.md, "Webhooks: attempts, retries and the window").
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795100000000 implements MigrationInterface {
  name = 'Webhooks1795100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_attempts" ("id" BIGSERIAL NOT NULL, "event_id" uuid NOT NULL, "org_id" integer NOT NULL, "url" text NOT NULL, "num_retries" integer NOT NULL, "manual" boolean NOT NULL DEFAULT false, "attempted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "duration_ms" integer NOT NULL, "status_code" integer, "error_kind" text, "response" text NOT NULL, "delivered" boolean NOT NULL, CONSTRAINT "PK_2de7e7887ad97de459adab62638" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f6860b071f398869c7ace8f9e7" ON "webhook_attempts"  ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_attempts_org_id" ON "webhook_attempts"  ("org_id", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" integer NOT NULL, "url" text NOT NULL, "secret_ciphertext" text NOT NULL, "status" text NOT NULL, "challenge_error" text, "last_failure_email_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "REL_c16c2418978f22136bd60cff19" UNIQUE ("org_id"), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_failures" ("event_id" uuid NOT NULL, "org_id" integer NOT NULL, "failed_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "emailed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_3fba4865a6b85b0c519b97b5d5f" PRIMARY KEY ("event_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_failures_unreported" ON "webhook_failures"  ("org_id") WHERE "emailed_at" IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_f6860b071f398869c7ace8f9e79" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_c16c2418978f22136bd60cff196" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_failures" ADD CONSTRAINT "FK_3fba4865a6b85b0c519b97b5d5f" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_failures" DROP CONSTRAINT "FK_3fba4865a6b85b0c519b97b5d5f"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "FK_c16c2418978f22136bd60cff196"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_f6860b071f398869c7ace8f9e79"`,
    );
    await queryRunner.query(`DROP INDEX "public"."webhook_failures_unreported"`);
    await queryRunner.query(`DROP TABLE "webhook_failures"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_attempts_org_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f6860b071f398869c7ace8f9e7"`);
    await queryRunner.query(`DROP TABLE "webhook_attempts"`);
  }
}
