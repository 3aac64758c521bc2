import { Column, Entity } from 'typeorm';

/**
 * Attempts counted per key in a fixed window, in the database so that a limit holds across instances: the
 * operators' sign-in and step-up (`address:…`, `account:…`, `account-address:…`) and the token endpoint
 * (`token-address:…`).
 */
@Entity({ name: 'attempt_counters' })
export class AttemptCounter {
  @Column({ primary: true, type: 'text' })
  key!: string;

  @Column({ name: 'window_start', type: 'timestamptz', precision: 3 })
  windowStart!: Date;

  @Column({ type: 'integer' })
  attempts!: number;
}
