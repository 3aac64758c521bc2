// The framework layers of bench/layers.bench.mjs. Each answers one route as the api does and does the same
// work per request as the reference (lib/bare-api.mjs), with the reference's own functions; what differs is
// only what carries that work. Routes:
//   bearer echo   POST /api/v1/oauth/test: the bearer check (bearerCheck), the body checked and echoed
//                 compact in the envelope;
//   signed write  POST /api/v1/user/: the API key signature check and claim (signedCheck), the body
//                 validated as CreateUserDto, the user and its event in one transaction (insertUser);
//   signed order  POST /api/v1/orders/: the same check, the body validated as CreateOrderDto, the order's
//                 statements and its event in one transaction (insertOrder, lib/bare-orders.mjs).
// Layers, each adding one thing to the one before it:
//   fastify          Fastify, the body read as text, the caller checked in a preHandler hook;
//   nest             Nest on Fastify, the check in a plain global guard;
//   nest-passport    the check in a passport strategy behind @nestjs/passport's AuthGuard (global), as the
//                    api's guard is built (passport-http-bearer; passport-custom for the signature);
//   nest-validation  (signed routes) the body validated by Nest's ValidationPipe against a class-validator
//                    DTO, with the api's whitelist, forbidNonWhitelisted and transform;
//   nest-typeorm     (signed routes) the transaction on a TypeORM query runner of a TypeORM DataSource,
//                    through @svc/db's transaction and query, as the api's services write.
// Plain JavaScript: Nest's and class-validator's decorators are applied as functions.
import 'reflect-metadata';

import {
  Body,
  Controller,
  Header,
  HttpCode,
  HttpException,
  Injectable,
  Module,
  Post,
  Req,
  ValidationPipe,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { openDatabase, query, transaction } from '@svc/db';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  ValidateBy,
} from 'class-validator';
import Fastify from 'fastify';
import { Strategy as CustomStrategy } from 'passport-custom';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import pg from 'pg';

import {
  bearerCheck,
  checkJsonBody,
  HttpError,
  inTransaction,
  insertOrder,
  insertUser,
  orderInput,
  orderRequest,
  ORG_USER_ID,
  rowsOf,
  signedCheck,
  userConflict,
  userInput,
} from './bare-api.mjs';
import { isAmount, SYMBOL } from './bare-orders.mjs';

const JSON_TYPE = 'application/json; charset=utf-8';
const envelope = (data) => `{"code":200,"data":${data},"error":null}`;

/** The layers each route is measured on, bottom up (bench/layers.bench.mjs prints them in this order). */
export const ROUTE_LAYERS = {
  'bearer echo': ['fastify', 'nest', 'nest-passport'],
  'signed write': ['fastify', 'nest', 'nest-passport', 'nest-validation', 'nest-typeorm'],
  'signed order': ['fastify', 'nest', 'nest-passport', 'nest-validation', 'nest-typeorm'],
};

/** A DTO class with `rules` (field -> class-validator decorators), as the api's DTOs declare them. */
function dtoClass(rules) {
  // Its fields are declared by the decorators applied below.
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class
  const Dto = class {};
  for (const [field, decorators] of Object.entries(rules)) {
    for (const decorate of decorators) decorate(Dto.prototype, field);
  }
  return Dto;
}

/** CreateUserDto's and CreateOrderDto's rules (the api's DTOs, written again here). */
const CreateUserBody = dtoClass({
  orgUserId: [IsDefined(), IsString(), Matches(ORG_USER_ID)],
  kyc: [IsDefined(), IsBoolean()],
  tnc: [IsDefined(), IsBoolean()],
});
const IsAmount = () =>
  ValidateBy({
    name: 'isAmount',
    validator: { validate: isAmount, defaultMessage: () => '$property must be an amount' },
  });
const CreateOrderBody = dtoClass({
  orgUserId: [IsDefined(), IsString(), Matches(ORG_USER_ID)],
  clientOrderId: [IsDefined(), IsUUID('all')],
  symbol: [IsDefined(), IsString(), Matches(SYMBOL)],
  side: [IsDefined(), IsIn(['BUY', 'SELL'])],
  type: [IsDefined(), IsIn(['MARKET'])],
  quantity: [IsOptional(), IsAmount()],
  quoteQuantity: [IsOptional(), IsAmount()],
});

/** The api's ValidationPipe options; a refusal answers 400 with every message, as the api's does. */
const validation = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  validationError: { target: false, value: false },
  exceptionFactory: (errors) =>
    refusal(
      new HttpError(
        400,
        `Bad Request: ${errors.flatMap((error) => Object.values(error.constraints ?? {})).join('; ')}`,
      ),
    ),
});

/** Nest's pipe before the ValidationPipe: the signed text, checked by the guard already, as an object. */
const parsed = { transform: (text) => JSON.parse(text) };

/**
 * The route's work: `path`, `check(request) => principal` (request.body is the text), `answer(principal,
 * body)` with the body as text, and for the signed routes `dto` (the class the ValidationPipe makes) and
 * `answerValid(principal, dto)`; their transaction runs through `transact(work)`, `work` given a client
 * with pg's `query`.
 */
function routeWork(route, { pool, config, transact }) {
  if (route === 'bearer echo') {
    const bearer = bearerCheck(pool);
    return {
      path: '/api/v1/oauth/test',
      check: (request) => bearer(request.headers.authorization, 'BASE_MODULE:WRITE'),
      answer: (_principal, body) => envelope(checkJsonBody(body ?? '')),
    };
  }
  const signed = signedCheck(pool, config);
  const check = (request) => signed(request, request.body ?? '');
  if (route === 'signed write') {
    const create = async (principal, input) => {
      try {
        const user = await transact((client) => insertUser(rowsOf(client), principal.orgId, input));
        return envelope(JSON.stringify(user));
      } catch (error) {
        throw userConflict(error, input);
      }
    };
    return {
      path: '/api/v1/user/',
      check,
      dto: CreateUserBody,
      answer: (principal, body) => create(principal, userInput(body)),
      answerValid: (principal, dto) => create(principal, dto),
    };
  }
  if (route === 'signed order') {
    const place = async (principal, request) =>
      envelope(JSON.stringify(await transact((client) => insertOrder(client, principal.orgId, request))));
    return {
      path: '/api/v1/orders/',
      check,
      dto: CreateOrderBody,
      answer: (principal, body) => place(principal, orderInput(body)),
      answerValid: (principal, dto) => place(principal, orderRequest(dto)),
    };
  }
  throw new Error(`unknown route ${route}`);
}

/** A transaction on a client of the pg pool, the reference's own way. */
const pgTransaction = (pool) => (work) => inTransaction(pool, work);

/**
 * A transaction on a TypeORM query runner of `dataSource`, as the api's services write theirs; `work` is
 * given its statements as a client with pg's `query`.
 */
const typeormTransaction = (dataSource) => (work) =>
  transaction(dataSource, (manager) =>
    work({ query: async (sql, values) => ({ rows: await query(manager, sql, values) }) }),
  );

/** Starts `layer` for `route` on the database at `url`; resolves to { port, close }. */
export async function startLayer(layer, route, { url, config }) {
  if (!ROUTE_LAYERS[route]?.includes(layer)) throw new Error(`no layer ${layer} for the ${route}`);
  const pool = new pg.Pool({ connectionString: url, max: 10, application_name: `bench-${layer}` });
  const dataSource =
    layer === 'nest-typeorm' ? await openDatabase({ url, applicationName: `bench-${layer}` }) : undefined;
  const transact = dataSource ? typeormTransaction(dataSource) : pgTransaction(pool);
  const work = routeWork(route, { pool, config, transact });
  const server = layer === 'fastify' ? await startFastify(work) : await startNest(layer, work);
  return {
    port: server.port,
    async close() {
      await server.close();
      await pool.end();
      await dataSource?.destroy();
    },
  };
}

/** The reference's answer to a refusal. */
const errorText = (error) =>
  error.body ?? JSON.stringify({ code: error.status, data: null, error: error.message });

const asText = (_request, body, done) => done(null, body);

async function startFastify(work) {
  const fastify = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  fastify.addHook('preHandler', async (request) => {
    request.principal = await work.check(request);
  });
  fastify.setErrorHandler((error, _request, reply) => {
    const known = error instanceof HttpError ? error : new HttpError(500, 'Internal Server Error');
    void reply
      .code(known.status)
      .headers(known.headers ?? {})
      .type(JSON_TYPE)
      .send(errorText(known));
  });
  fastify.post(work.path, (request, reply) => {
    void reply.type(JSON_TYPE);
    return work.answer(request.principal, request.body);
  });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { port: fastify.server.address().port, close: () => fastify.close() };
}

/** A refusal as Nest answers it (the reference's body and headers). */
function refusal(error) {
  if (!(error instanceof HttpError)) return error;
  const exception = new HttpException(JSON.parse(errorText(error)), error.status);
  exception.headers = error.headers;
  return exception;
}

/** The route's controller: the body as text, or (`validated`) as the DTO the ValidationPipe made. */
function controllerFor(work, validated) {
  class LayerController {
    async handle(request, dto) {
      try {
        return await (validated
          ? work.answerValid(request.user, dto)
          : work.answer(request.user, request.body));
      } catch (error) {
        throw refusal(error);
      }
    }
  }
  Controller()(LayerController);
  const method = [LayerController.prototype, 'handle'];
  Req()(...method, 0);
  if (validated) {
    Body(parsed, validation)(...method, 1);
    // What TypeScript's emitDecoratorMetadata would record: the pipe validates against the second type.
    Reflect.defineMetadata('design:paramtypes', [Object, work.dto], ...method);
  }
  for (const decorate of [Post(work.path), HttpCode(200), Header('content-type', JSON_TYPE)]) {
    decorate(...method, Object.getOwnPropertyDescriptor(...method));
  }
  return LayerController;
}

/** The check as a plain guard, or as a passport strategy (the api's kind for the route) behind AuthGuard. */
function guardFor(layer, work) {
  const checked = async (request) => {
    try {
      return await work.check(request);
    } catch (error) {
      throw refusal(error);
    }
  };
  if (layer === 'nest') {
    class CheckGuard {
      async canActivate(context) {
        const request = context.switchToHttp().getRequest();
        request.user = await checked(request);
        return true;
      }
    }
    Injectable()(CheckGuard);
    return { guard: new CheckGuard(), imports: [], providers: [] };
  }
  const LayerStrategy =
    work.path === '/api/v1/oauth/test'
      ? class extends PassportStrategy(BearerStrategy, 'layer') {
          validate(token) {
            return checked({ headers: { authorization: `Bearer ${token}` } });
          }
        }
      : class extends PassportStrategy(CustomStrategy, 'layer') {
          validate(request) {
            return checked(request);
          }
        };
  Injectable()(LayerStrategy);
  class LayerGuard extends AuthGuard('layer') {}
  Injectable()(LayerGuard);
  // The strategy registers itself with passport when made.
  return {
    guard: new LayerGuard(),
    imports: [PassportModule],
    providers: [{ provide: LayerStrategy, useValue: new LayerStrategy() }],
  };
}

/** Nest on Fastify with the layer's guard global, the body read as text. */
async function startNest(layer, work) {
  const { guard, imports, providers } = guardFor(layer, work);
  // A Nest module is an empty class; its decorator is applied as a function below.
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class
  class LayerModule {}
  Module({
    imports,
    controllers: [controllerFor(work, ['nest-validation', 'nest-typeorm'].includes(layer))],
    providers: [{ provide: APP_GUARD, useValue: guard }, ...providers],
  })(LayerModule);
  const app = await NestFactory.create(
    LayerModule,
    new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } }),
    { bodyParser: false, logger: false },
  );
  app.getHttpAdapter().getInstance().addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  await app.listen(0, '127.0.0.1');
  return { port: app.getHttpServer().address().port, close: () => app.close() };
}
