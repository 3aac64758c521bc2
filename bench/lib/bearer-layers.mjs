// The framework layers of bench/bearer-layers.bench.mjs, each answering POST /api/v1/oauth/test as the api
// does and doing the same work per request: the bearer check of the reference (lib/bare-api.mjs: SHA-256
// of the token, its row behind the 0.5 s cache, expiry, scope BASE_MODULE:WRITE), the body checked and
// written compact (canonicalizeJson), in the same envelope. What differs is only what carries it:
//   fastify        Fastify, the body read as text, the check in an onRequest hook;
//   nest           Nest on Fastify, the check in a plain global guard;
//   nest-passport  Nest on Fastify, the check in a passport-http-bearer strategy behind @nestjs/passport's
//                  AuthGuard (global), as the api's guard is built.
// Plain JavaScript: Nest's decorators are applied as functions, dependencies given as values.
import 'reflect-metadata';

import { Controller, Header, HttpCode, HttpException, Injectable, Module, Post, Req } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import Fastify from 'fastify';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import pg from 'pg';

import { bearerCheck, checkJsonBody, HttpError } from './bare-api.mjs';

const PATH = '/api/v1/oauth/test';
const SCOPE = 'BASE_MODULE:WRITE';
const JSON_TYPE = 'application/json; charset=utf-8';

const echo = (body) => `{"code":200,"data":${checkJsonBody(body)},"error":null}`;

/** The reference's answer to a refusal. */
const errorText = (error) =>
  error.body ?? JSON.stringify({ code: error.status, data: null, error: error.message });

/** Starts `layer` on the database at `url`; resolves to { port, close }. */
export async function startLayer(layer, { url }) {
  const pool = new pg.Pool({ connectionString: url, max: 10, application_name: `bench-${layer}` });
  const bearer = bearerCheck(pool);
  const start = { fastify: startFastify, nest: startNest, 'nest-passport': startNestPassport }[layer];
  if (!start) throw new Error(`unknown layer ${layer}`);
  const server = await start(bearer);
  return {
    port: server.port,
    async close() {
      await server.close();
      await pool.end();
    },
  };
}

async function startFastify(bearer) {
  const fastify = Fastify();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  fastify.addHook('onRequest', async (request) => {
    request.principal = await bearer(request.headers.authorization, SCOPE);
  });
  fastify.setErrorHandler((error, _request, reply) => {
    const status = error instanceof HttpError ? error.status : 500;
    void reply
      .code(status)
      .headers(error.headers ?? {})
      .type(JSON_TYPE)
      .send(errorText(error instanceof HttpError ? error : new HttpError(500, 'Internal Server Error')));
  });
  fastify.post(PATH, (request, reply) => {
    void reply.type(JSON_TYPE);
    return echo(request.body ?? '');
  });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { port: fastify.server.address().port, close: () => fastify.close() };
}

/** The echo controller of both Nest layers. */
class EchoController {
  echo(request) {
    return echo(request.body ?? '');
  }
}
Controller('api/v1/oauth')(EchoController);
Req()(EchoController.prototype, 'echo', 0);
for (const decorate of [Post('test'), HttpCode(200), Header('content-type', JSON_TYPE)]) {
  decorate(
    EchoController.prototype,
    'echo',
    Object.getOwnPropertyDescriptor(EchoController.prototype, 'echo'),
  );
}

/** A refusal as Nest answers it (the reference's body and headers). */
function refusal(error) {
  if (!(error instanceof HttpError)) return error;
  const exception = new HttpException(JSON.parse(errorText(error)), error.status);
  exception.headers = error.headers;
  return exception;
}

/** Nest on Fastify with `guard` global, the body read as text. */
async function startNestWith(guard, imports = [], providers = []) {
  // A Nest module is an empty class; its decorator is applied as a function below.
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class
  class LayerModule {}
  Module({
    imports,
    controllers: [EchoController],
    providers: [{ provide: APP_GUARD, useValue: guard }, ...providers],
  })(LayerModule);
  const app = await NestFactory.create(LayerModule, new FastifyAdapter(), {
    bodyParser: false,
    logger: false,
  });
  app
    .getHttpAdapter()
    .getInstance()
    .addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
  await app.listen(0, '127.0.0.1');
  return { port: app.getHttpServer().address().port, close: () => app.close() };
}

function startNest(bearer) {
  class BearerGuard {
    async canActivate(context) {
      const request = context.switchToHttp().getRequest();
      try {
        request.user = await bearer(request.headers.authorization, SCOPE);
      } catch (error) {
        throw refusal(error);
      }
      return true;
    }
  }
  Injectable()(BearerGuard);
  return startNestWith(new BearerGuard());
}

function startNestPassport(bearer) {
  class TokenStrategy extends PassportStrategy(BearerStrategy, 'bearer') {
    async validate(token) {
      try {
        return await bearer(`Bearer ${token}`, SCOPE);
      } catch (error) {
        throw refusal(error);
      }
    }
  }
  Injectable()(TokenStrategy);
  class TokenGuard extends AuthGuard('bearer') {}
  Injectable()(TokenGuard);
  // The strategy registers itself with passport when made.
  return startNestWith(
    new TokenGuard(),
    [PassportModule],
    [{ provide: TokenStrategy, useValue: new TokenStrategy() }],
  );
}
