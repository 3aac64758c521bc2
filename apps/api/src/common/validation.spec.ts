import 'reflect-metadata';

import { type ArgumentMetadata } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';

import { CreateOrderDto } from '../orders/dto/create-order.dto.js';
import { CreateUserDto } from '../users/dto/create-user.dto.js';
import { Dec } from './decimal.js';
import { createValidationPipe, plainToDto } from './validation.js';

const pipe = createValidationPipe();
const OPTIONS = { enableImplicitConversion: false };
const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });
/** A request body as the JSON parser hands it over. */
const parsed = (value: object) => JSON.parse(JSON.stringify(value)) as object;

const ORDER = {
  orgUserId: 'user-1',
  clientOrderId: '6f1c2b7e-3d4a-4c5b-9e8f-0a1b2c3d4001',
  symbol: 'BTC_EUR',
  side: 'BUY',
  type: 'MARKET',
  quoteQuantity: 25.5,
};

describe('the validation pipe', () => {
  it.each([
    ['a user', CreateUserDto, { orgUserId: 'user-1', kyc: true, tnc: false }],
    ['a user with an unknown field', CreateUserDto, { orgUserId: 'user-1', kyc: true, tnc: true, x: 1 }],
    ['a user with a null field', CreateUserDto, { orgUserId: null, kyc: true, tnc: true }],
    [
      'a user with a constructor key',
      CreateUserDto,
      { orgUserId: 'u', kyc: true, tnc: true, constructor: 1 },
    ],
    ['a user with a method name', CreateUserDto, { orgUserId: 'u', kyc: true, tnc: true, toString: 'x' }],
    ['a user with nested values', CreateUserDto, { orgUserId: { a: 1 }, kyc: [true], tnc: true }],
    ['an order by quote amount', CreateOrderDto, ORDER],
    ['an order by quantity', CreateOrderDto, { ...ORDER, quoteQuantity: 1, quantity: 0.00123456 }],
    ['an order with a bad amount', CreateOrderDto, { ...ORDER, quoteQuantity: 1.123456789 }],
    ['an order with a string amount', CreateOrderDto, { ...ORDER, quoteQuantity: '25.5' }],
  ])('builds %s as class-transformer does', (_name, metatype: new () => object, value) => {
    const ours = plainToDto(metatype, parsed(value), OPTIONS);
    expect(ours).toBeInstanceOf(metatype);
    expect(ours).toStrictEqual(plainToInstance(metatype, parsed(value), OPTIONS));
  });

  it('turns an order amount into the exact decimal sent', async () => {
    const order = (await pipe.transform(parsed(ORDER), body(CreateOrderDto))) as CreateOrderDto;
    expect(order).toBeInstanceOf(CreateOrderDto);
    expect(Dec.isDecimal(order.quoteQuantity)).toBe(true);
    expect(order.quoteQuantity?.toFixed()).toBe('25.5');
  });

  it('names each field and its rule', async () => {
    await expect(
      pipe.transform(parsed({ orgUserId: 'a b', kyc: 'yes', tnc: true, extra: 1 }), body(CreateUserDto)),
    ).rejects.toThrow(
      'property extra should not exist; ' +
        'orgUserId must be 1 to 128 characters among letters, digits and . _ : @ -; kyc must be a boolean value',
    );
  });

  it('leaves out a body key named as a method, as class-transformer does', async () => {
    const user: unknown = await pipe.transform(
      parsed({ orgUserId: 'u', kyc: true, tnc: true, toString: 'x' }),
      body(CreateUserDto),
    );
    expect(user).toStrictEqual(Object.assign(new CreateUserDto(), { orgUserId: 'u', kyc: true, tnc: true }));
  });
});
