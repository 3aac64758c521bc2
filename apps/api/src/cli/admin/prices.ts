// `prices set|list|get|delete`: the operator prices the default venue fills market orders at.
import { amountArg, pageQuery } from './args.js';
import { ADMIN_ROUTES } from './client.js';
import type { CommandGroup } from './command.js';
import { page, record } from './format.js';

export const PRICES: CommandGroup = {
  set: {
    args: ['symbol', 'price'],
    flags: [],
    help: '<BASE_QUOTE> <price>: the price the default venue fills market orders at',
    run: (client, [symbol = '', price = '']) =>
      client.call(ADMIN_ROUTES.setPrice, { symbol }, { price: amountArg('price', price) }),
    text: record,
  },
  list: {
    args: [],
    flags: ['limit', 'cursor'],
    help: '[--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) => client.call(ADMIN_ROUTES.listPrices, {}, pageQuery(values)),
    text: (data) => page(data, ['symbol', 'price', 'updatedAt']),
  },
  get: {
    args: ['symbol'],
    flags: [],
    help: '<BASE_QUOTE>',
    run: (client, [symbol = '']) => client.call(ADMIN_ROUTES.getPrice, { symbol }),
    text: record,
  },
  delete: {
    args: ['symbol'],
    flags: [],
    help: '<BASE_QUOTE>: the pair has no market until a price is set again',
    run: (client, [symbol = '']) => client.call(ADMIN_ROUTES.deletePrice, { symbol }),
    text: record,
  },
};
