// Column conventions shared by the entities: snake_case names, millisecond timestamps with time zone.
import { Column, CreateDateColumn, UpdateDateColumn } from 'typeorm';

export const CreatedAt = () => CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 });
export const UpdatedAt = () => UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 });

/**
 * A quantity, price, amount or rate: numeric with 8 decimals (docs/decisions.md, "Orders: amounts"). pg
 * returns it as a string ("0.30000000"); code does its arithmetic in Decimal and rounds to 8 decimals before
 * writing.
 */
export const AMOUNT_SCALE = 8;
export const Amount = (name: string, options: { nullable?: boolean } = {}) =>
  Column({ name, type: 'numeric', precision: 38, scale: AMOUNT_SCALE, nullable: options.nullable ?? false });
