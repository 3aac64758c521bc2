// The first schema: organisations and their credentials, users and KYC, events, the audit log.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795000000000 implements MigrationInterface {
  name = 'Init1795000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "organisations" ("id" SERIAL NOT NULL, "name" text NOT NULL, "kyc_domain" text NOT NULL, "plan" text NOT NULL, "support_emails" text array NOT NULL DEFAULT '{}', "policy" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7bf54cba378d5b2f1d4c10ef4df" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" integer NOT NULL, "key" text NOT NULL, "secret_ciphertext" text NOT NULL, "label" text NOT NULL DEFAULT '', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_ba7f5748f500d24aa18041d043" ON "api_keys"  ("org_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_e42cf55faeafdcce01a82d2484" ON "api_keys"  ("key")`);
    await queryRunner.query(
      `CREATE TABLE "audit_log" ("id" BIGSERIAL NOT NULL, "actor" text NOT NULL, "action" text NOT NULL, "org_id" integer, "details" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_70430c5fa35687c06d2f626cf9" ON "audit_log"  ("org_id")`);
    await queryRunner.query(
      `CREATE TABLE "events" ("id" uuid NOT NULL, "org_id" integer NOT NULL, "entity" text NOT NULL, "event_type" text, "data" jsonb NOT NULL, "status" text NOT NULL DEFAULT 'PENDING', "num_retries" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "events_org_created" ON "events"  ("org_id", "created_at")`);
    await queryRunner.query(
      `CREATE TABLE "users" ("id" BIGSERIAL NOT NULL, "org_id" integer NOT NULL, "org_user_id" text NOT NULL, "kyc" boolean NOT NULL, "tnc" boolean NOT NULL, "user_status" text NOT NULL, "user_type" text NOT NULL DEFAULT 'CONSUMER', "kyc_state" text NOT NULL DEFAULT 'NONE', "kyc_form" jsonb, "kyc_expires_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "users_org_user" UNIQUE ("org_id", "org_user_id"), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_9f33d7add358ad66647aeb1e07" ON "users"  ("user_status")`);
    await queryRunner.query(`CREATE INDEX "IDX_0cf25a79a1143d983af552de4c" ON "users"  ("kyc_expires_at")`);
    await queryRunner.query(
      `CREATE TABLE "kyc_documents" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" integer NOT NULL, "user_id" bigint NOT NULL, "doc_category" text NOT NULL, "doc_sub_category" text NOT NULL, "file_name" text NOT NULL, "content_type" text NOT NULL, "size_bytes" integer NOT NULL, "sha256" text NOT NULL, "content" bytea NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_02e49877f1578e6285f84e57ab6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_83d1e7b68c12df09ba0e272c1a" ON "kyc_documents"  ("user_id")`);
    await queryRunner.query(
      `CREATE TABLE "oauth_clients" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "org_id" integer NOT NULL, "client_id" text NOT NULL, "secret_hash" text NOT NULL, "scopes" text array NOT NULL, "label" text NOT NULL DEFAULT '', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_c4759172d3431bae6f04e678e0d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_65dfb037b38e9acc93f79e85c8" ON "oauth_clients"  ("org_id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_c5c4af500cc8bfc05500fff7f9" ON "oauth_clients"  ("client_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "token_hash" text NOT NULL, "client_id" uuid NOT NULL, "org_id" integer NOT NULL, "scopes" text array NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_71c8b8060826696206f973554fd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_e480dae4261d01e7191d7b7090" ON "oauth_tokens"  ("token_hash")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_be15e1038f434b11598ed586fe" ON "oauth_tokens"  ("client_id")`);
    await queryRunner.query(
      `CREATE TABLE "used_signatures" ("api_key_id" uuid NOT NULL, "signature" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_37d2cd389958e41502c56f0ca31" PRIMARY KEY ("api_key_id", "signature"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_02ae1d4cc4597430d15b78d529" ON "used_signatures"  ("expires_at")`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_ba7f5748f500d24aa18041d0439" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "events" ADD CONSTRAINT "FK_f37383a8691fb6bb3f6bf20889f" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "FK_0a13270cd3101fd16b8000e00d4" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "kyc_documents" ADD CONSTRAINT "FK_83d1e7b68c12df09ba0e272c1a5" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_clients" ADD CONSTRAINT "FK_65dfb037b38e9acc93f79e85c85" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_tokens" ADD CONSTRAINT "FK_be15e1038f434b11598ed586fef" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "used_signatures" ADD CONSTRAINT "FK_820ba1c36c8540f04e6d035e0e1" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "used_signatures" DROP CONSTRAINT "FK_820ba1c36c8540f04e6d035e0e1"`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP CONSTRAINT "FK_be15e1038f434b11598ed586fef"`);
    await queryRunner.query(`ALTER TABLE "oauth_clients" DROP CONSTRAINT "FK_65dfb037b38e9acc93f79e85c85"`);
    await queryRunner.query(`ALTER TABLE "kyc_documents" DROP CONSTRAINT "FK_83d1e7b68c12df09ba0e272c1a5"`);
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "FK_0a13270cd3101fd16b8000e00d4"`);
    await queryRunner.query(`ALTER TABLE "events" DROP CONSTRAINT "FK_f37383a8691fb6bb3f6bf20889f"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_ba7f5748f500d24aa18041d0439"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_02ae1d4cc4597430d15b78d529"`);
    await queryRunner.query(`DROP TABLE "used_signatures"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_be15e1038f434b11598ed586fe"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e480dae4261d01e7191d7b7090"`);
    await queryRunner.query(`DROP TABLE "oauth_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c5c4af500cc8bfc05500fff7f9"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_65dfb037b38e9acc93f79e85c8"`);
    await queryRunner.query(`DROP TABLE "oauth_clients"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_83d1e7b68c12df09ba0e272c1a"`);
    await queryRunner.query(`DROP TABLE "kyc_documents"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0cf25a79a1143d983af552de4c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9f33d7add358ad66647aeb1e07"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."events_org_created"`);
    await queryRunner.query(`DROP TABLE "events"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_70430c5fa35687c06d2f626cf9"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e42cf55faeafdcce01a82d2484"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ba7f5748f500d24aa18041d043"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP TABLE "organisations"`);
  }
}
