// Operators' KYC decisions get a table of their own (they were read back from the audit log, which is a
// record, not a source). Existing decisions are copied from the audit log once, here.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class KycReviews1795400000000 implements MigrationInterface {
  name = 'KycReviews1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "kyc_reviews" ("id" BIGSERIAL NOT NULL, "org_id" integer NOT NULL, "user_id" bigint NOT NULL, "event_type" text NOT NULL, "message" text, "reviewer" text NOT NULL, "event_id" uuid NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2fe1b14e483bbcac36e9763124a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "kyc_reviews_user" ON "kyc_reviews"  ("user_id", "id") `);
    await queryRunner.query(
      `ALTER TABLE "kyc_reviews" ADD CONSTRAINT "FK_ad693f6554eaa1a29887b80e141" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `INSERT INTO "kyc_reviews" ("org_id", "user_id", "event_type", "message", "reviewer", "event_id", "created_at")
       SELECT a.org_id, u.id, a.details->>'eventType',
              COALESCE(a.details->>'reason', a.details->>'message', a.details->>'note'),
              a.actor, (a.details->>'eventId')::uuid, a.created_at
         FROM audit_log a JOIN users u ON u.org_id = a.org_id AND u.org_user_id = a.details->>'orgUserId'
        WHERE a.action IN ('kyc.approve', 'kyc.reject', 'kyc.request-information')
        ORDER BY a.id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "kyc_reviews" DROP CONSTRAINT "FK_ad693f6554eaa1a29887b80e141"`);
    await queryRunner.query(`DROP INDEX "public"."kyc_reviews_user"`);
    await queryRunner.query(`DROP TABLE "kyc_reviews"`);
  }
}
