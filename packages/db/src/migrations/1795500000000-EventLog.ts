// The event log and the event stream (docs/decisions.md, "Events: the stream is gapless and without
// duplicates"): each event gets its insertion position and the id of the transaction that wrote it, indexes
// for the log (by time) and the stream (by transaction), and the table of open streams that the
// per-organisation cap counts.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class EventLog1795500000000 implements MigrationInterface {
  name = 'EventLog1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Existing rows are numbered in their creation order and share this migration's transaction id.
    await queryRunner.query(`ALTER TABLE "events" ADD "position" BIGSERIAL NOT NULL`);
    // The writing transaction's id: xid8 as a bigint (the xid8 type has no cast to bigint, and neither
    // TypeORM nor node-postgres knows it). SQL functions are inlined: the default costs no call.
    await queryRunner.query(
      `CREATE FUNCTION "events_txid"() RETURNS bigint LANGUAGE sql VOLATILE AS 'SELECT pg_current_xact_id()::text::bigint'`,
    );
    await queryRunner.query(`ALTER TABLE "events" ADD "txid" bigint NOT NULL DEFAULT events_txid()`);
    await queryRunner.query(`DROP INDEX "public"."events_org_created"`);
    await queryRunner.query(
      `CREATE INDEX "events_org_created" ON "events"  ("org_id", "created_at", "position") `,
    );
    await queryRunner.query(`CREATE INDEX "events_org_stream" ON "events"  ("org_id", "txid", "position") `);
    await queryRunner.query(
      `CREATE TABLE "event_streams" ("id" uuid NOT NULL, "org_id" integer NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_58a9c777323c51e32bfad87b30d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "event_streams_org" ON "event_streams"  ("org_id", "expires_at") `);
    await queryRunner.query(
      `ALTER TABLE "event_streams" ADD CONSTRAINT "FK_ec6a603d337a87df541a1ba99c2" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "event_streams" DROP CONSTRAINT "FK_ec6a603d337a87df541a1ba99c2"`);
    await queryRunner.query(`DROP INDEX "public"."event_streams_org"`);
    await queryRunner.query(`DROP TABLE "event_streams"`);
    await queryRunner.query(`DROP INDEX "public"."events_org_stream"`);
    await queryRunner.query(`DROP INDEX "public"."events_org_created"`);
    await queryRunner.query(`CREATE INDEX "events_org_created" ON "events"  ("org_id", "created_at") `);
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "txid"`);
    await queryRunner.query(`DROP FUNCTION "events_txid"()`);
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "position"`);
  }
}
