// The framework layers of bench/layers.bench.mjs. Each answers one route as the api does and does the same
// work per request as the reference (lib/bare-api.mjs), with the reference's own functions; what differs is
// only what carries that work. Routes:
//   bearer echo   POST /api/v1/oauth/test: the bearer check (bearerCheck), the body checked and echoed
//                 compact in the envelope;
//   signed write  POST /api/v1/user/: the API key signature check and claim (signedCheck), the body
//                 validated as CreateUserDto, the user and its event in one transaction (insertUser).
// Layers, each adding one thing to the one before it:
//   fastify          Fastify, the body read as text, the caller checked in a preHandler hook;
//   nest             Nest on Fastify, the check in a plain global guard;
//   nest-passport    the check in a passport strategy behind @nestjs/passport's AuthGuard (global), as the
//                    api's guard is built (passport-http-bearer; passport-custom for the signature);
//   nest-validation  (signed write) the body validated by Nest's ValidationPipe against a class-validator
//                    DTO, with the api's whitelist, forbidNonWhitelisted and transform;
//   nest-typeorm     (signed write) the transaction on a TypeORM query runner of a TypeORM DataSource,
//                    through @svc/db's writeTransaction and query, as the api's services write.
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
import { openDatabase, query, writeTransaction } from '@svc/db';
import { IsBoolean, IsDefined, IsString, Matches } from 'class-validator';
import Fastify from 'fastify';
import { Strategy as CustomStrategy } from 'passport-custom';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import pg from 'pg';

import {
  bearerCheck,
  checkJsonBody,
  HttpError,
  inTransaction,
  insertUser,
  rowsOf,
  signedCheck,
  userConflict,
  userInput,
} from './bare-api.mjs';

const JSON_TYPE = 'application/json; charset=utf-8';
const envelope = (data) => `{"code":200,"data":${data},"error":null}`;

/** The layers each route is measured on, bottom up (bench/layers.bench.mjs prints them in this order). */
export const ROUTE_LAYERS = {
  'bearer echo': ['fastify', 'nest', 'nest-passport'],
  'signed write': ['fastify', 'nest', 'nest-passport', 'nest-validation', 'nest-typeorm'],
};

/** CreateUserDto's rules, as class-validator decorators (the api's DTO, written again here). */
// Its fields are declared by the decorators applied below.
// eslint-disable-next-line @typescript-eslint/no-extraneous-class
class CreateUserBody {}
for (const [field, rules] of Object.entries({
  orgUserId: [IsDefined(), IsString(), Matches(/^[A-Za-z0-9._:@-]{1,128}$/)],
  kyc: [IsDefined(), IsBoolean()],
  tnc: [IsDefined(), IsBoolean()],
})) {
  for (const rule of rules) rule(CreateUserBody.prototype, field);
}

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
 * body)` with the body as text, and for the signed write `answerValid(principal, dto)` with the DTO the
 * ValidationPipe made; its transaction runs through `transact(work)`, `work` given `run(sql, values) =>
 * rows`.
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
  if (route === 'signed write') {
    const signed = signedCheck(pool, config);
    const create = async (principal, input) => {
      try {
        return envelope(JSON.stringify(await transact((run) => insertUser(run, principal.orgId, input))));
      } catch (error) {
        throw userConflict(error, input);
      }
    };
    return {
      path: '/api/v1/user/',
      check: (request) => signed(request, request.body ?? ''),
      answer: (principal, body) => create(principal, userInput(body)),
      answerValid: (principal, dto) => create(principal, dto),
    };
  }
  throw new Error(`unknown route ${route}`);
}

/** A transaction on a client of the pg pool, the reference's own way. */
const pgTransaction = (pool) => (work) => inTransaction(pool, (client) => work(rowsOf(client)));

/** A transaction on a TypeORM query runner of `dataSource`, as the api's services write theirs. */
const typeormTransaction = (dataSource) => (work) =>
  writeTransaction(dataSource, (manager) => work((sql, values) => query(manager, sql, values)));

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
    Reflect.defineMetadata('design:paramtypes', [Object, CreateUserBody], ...method);
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
