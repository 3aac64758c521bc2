// The order lifecycle (docs/api-guide.md#orders): time in force, limit and stop prices, expiry, cancel and
// replace on the orders; their fills; and the price levels of each pair's book.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OrderLifecycle1797000000000 implements MigrationInterface {
  name = 'OrderLifecycle1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "order_fills" ("id" BIGSERIAL NOT NULL, "order_id" bigint NOT NULL, "user_id" bigint NOT NULL, "price" numeric(38,8) NOT NULL, "quantity" numeric(38,8) NOT NULL, "net_amount" numeric(38,8) NOT NULL, "commission_amount" numeric(38,8) NOT NULL, "vat_amount" numeric(38,8) NOT NULL, "total_amount" numeric(38,8) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_eaeeaf0c7a82b529e16bcca41a4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "order_fills_order" ON "order_fills"  ("order_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "price_levels" ("symbol" text NOT NULL, "side" text NOT NULL, "price" numeric(38,8) NOT NULL, "size" numeric(38,8) NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "price_levels_size_not_negative" CHECK ("size" >= 0), CONSTRAINT "PK_faf048fe42dd71000cced0a0a1c" PRIMARY KEY ("symbol", "side", "price"))`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "time_in_force" text`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "limit_price" numeric(38,8)`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "stop_price" numeric(38,8)`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "triggered_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "expire_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "cancel_reason" text`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "replaces" bigint`);
    await queryRunner.query(
      `CREATE INDEX "orders_open_expiry" ON "orders"  ("expire_at") WHERE "status" IN ('PENDING', 'PARTIALLY_FILLED') AND "expire_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "orders_open" ON "orders"  ("symbol", "id") WHERE "status" IN ('PENDING', 'PARTIALLY_FILLED')`,
    );
    await queryRunner.query(
      `CREATE INDEX "orders_user_open" ON "orders"  ("user_id") WHERE "status" IN ('PENDING', 'PARTIALLY_FILLED')`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_fills" ADD CONSTRAINT "FK_832d7a09803140bfd9a34aaa72a" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // An order's amounts are the sums of its fills: a market order filled before this migration is one fill.
    await queryRunner.query(
      `INSERT INTO "order_fills" ("order_id", "user_id", "price", "quantity", "net_amount", "commission_amount", "vat_amount", "total_amount", "created_at")
       SELECT "id", "user_id", "price", "filled", "net_executed_amount", "commission_amount", "vat_amount", "total_executed_amount", "created_at"
         FROM "orders" WHERE "status" = 'COMPLETED'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_fills" DROP CONSTRAINT "FK_832d7a09803140bfd9a34aaa72a"`);
    await queryRunner.query(`DROP INDEX "public"."orders_user_open"`);
    await queryRunner.query(`DROP INDEX "public"."orders_open"`);
    await queryRunner.query(`DROP INDEX "public"."orders_open_expiry"`);
    for (const column of [
      'replaces',
      'cancel_reason',
      'expire_at',
      'triggered_at',
      'stop_price',
      'limit_price',
      'time_in_force',
    ]) {
      await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "${column}"`);
    }
    await queryRunner.query(`DROP TABLE "price_levels"`);
    await queryRunner.query(`DROP INDEX "public"."order_fills_order"`);
    await queryRunner.query(`DROP TABLE "order_fills"`);
  }
}
