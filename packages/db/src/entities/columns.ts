// Column conventions shared by the entities: snake_case names, millisecond timestamps with time zone.
import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

export const CreatedAt = () => CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 });
export const UpdatedAt = () => UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 });
