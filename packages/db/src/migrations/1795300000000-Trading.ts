// Orders, positions, operator prices, system notices and trading halts (docs/decisions.md, "Orders: the
// checks and limits"), and the policy's per-currency limits: quoteLimit, totalLimit and totalExposure become
// maps like assetExposure.
import type { MigrationInterface, QueryRunner } from 'typeorm';

const PER_CURRENCY_LIMITS = ['quoteLimit', 'totalLimit', 'totalExposure'];

export class Trading1795300000000 implements MigrationInterface {
  name = 'Trading1795300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "orders" ("id" BIGSERIAL NOT NULL, "org_id" integer NOT NULL, "user_id" bigint NOT NULL, "org_user_id" text NOT NULL, "client_order_id" uuid NOT NULL, "symbol" text NOT NULL, "side" text NOT NULL, "type" text NOT NULL, "amount_field" text NOT NULL, "quantity" numeric(38,8) NOT NULL, "quote_quantity" numeric(38,8) NOT NULL, "filled" numeric(38,8) NOT NULL, "status" text NOT NULL, "price" numeric(38,8) NOT NULL, "average_price" numeric(38,8) NOT NULL, "estimated_price" numeric(38,8) NOT NULL, "base_average_price" numeric(38,8) NOT NULL, "commission_rate" numeric(38,8) NOT NULL, "vat_rate" numeric(38,8) NOT NULL, "commission_amount" numeric(38,8) NOT NULL, "vat_amount" numeric(38,8) NOT NULL, "net_executed_amount" numeric(38,8) NOT NULL, "total_executed_amount" numeric(38,8) NOT NULL, "commission_asset" text NOT NULL, "rejection_reason" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "orders_org_client_order" UNIQUE ("org_id", "client_order_id"), CONSTRAINT "PK_710e2d4957aa5878dfe94e4ac2f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "orders_user_created" ON "orders"  ("user_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "orders_org_id" ON "orders"  ("org_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "positions" ("user_id" bigint NOT NULL, "asset" text NOT NULL, "org_id" integer NOT NULL, "quantity" numeric(38,8) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "positions_quantity_not_negative" CHECK ("quantity" >= 0), CONSTRAINT "PK_0c925c41265221d700244510927" PRIMARY KEY ("user_id", "asset"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "prices" ("symbol" text NOT NULL, "price" numeric(38,8) NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5c60132c8a9f3690b018aed6fb9" PRIMARY KEY ("symbol"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "system_notices" ("id" BIGSERIAL NOT NULL, "event" text NOT NULL, "entity" text NOT NULL, "message" text NOT NULL, "start_time" TIMESTAMP(3) WITH TIME ZONE, "end_time" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_94d3659ff6794c6d255d89b610a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "trading_halts" ("symbol" text NOT NULL, "notice_id" bigint NOT NULL, "starts_at" TIMESTAMP(3) WITH TIME ZONE, "ends_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_ab0178b7048ef9ca90e21b76e46" PRIMARY KEY ("symbol"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "orders" ADD CONSTRAINT "FK_a313d7b77cb470ec635e6403942" FOREIGN KEY ("org_id") REFERENCES "organisations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "orders" ADD CONSTRAINT "FK_a922b820eeef29ac1c6800e826a" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "positions" ADD CONSTRAINT "FK_4960bf74ea7fea6db05e53989da" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "trading_halts" ADD CONSTRAINT "FK_3dff7207097ef9ee592113d4e53" FOREIGN KEY ("notice_id") REFERENCES "system_notices"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // No policy could set these limits before this migration, so a single value is not expected; any
    // non-map value becomes "no limit".
    for (const key of PER_CURRENCY_LIMITS) {
      await queryRunner.query(
        `UPDATE "organisations" SET "policy" = jsonb_set("policy", $1, '{}'::jsonb) WHERE jsonb_typeof("policy" -> $2) IS DISTINCT FROM 'object'`,
        [`{${key}}`, key],
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const key of PER_CURRENCY_LIMITS) {
      await queryRunner.query(
        `UPDATE "organisations" SET "policy" = jsonb_set("policy", $1, 'null'::jsonb)`,
        [`{${key}}`],
      );
    }
    await queryRunner.query(`ALTER TABLE "trading_halts" DROP CONSTRAINT "FK_3dff7207097ef9ee592113d4e53"`);
    await queryRunner.query(`ALTER TABLE "positions" DROP CONSTRAINT "FK_4960bf74ea7fea6db05e53989da"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP CONSTRAINT "FK_a922b820eeef29ac1c6800e826a"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP CONSTRAINT "FK_a313d7b77cb470ec635e6403942"`);
    await queryRunner.query(`DROP TABLE "trading_halts"`);
    await queryRunner.query(`DROP TABLE "system_notices"`);
    await queryRunner.query(`DROP TABLE "prices"`);
    await queryRunner.query(`DROP TABLE "positions"`);
    await queryRunner.query(`DROP INDEX "public"."orders_org_id"`);
    await queryRunner.query(`DROP INDEX "public"."orders_user_created"`);
    await queryRunner.query(`DROP TABLE "orders"`);
  }
}
