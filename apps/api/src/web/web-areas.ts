// The areas the api serves to people as HTML pages beside /api/v1 (docs/decisions.md, "Web pages:
// server-rendered HTML"). Under each: no global /api/v1 prefix, HTML forms accepted, the strict security
// headers on every answer, errors as pages. An area (the organisation dashboard; the operator console)
// registers itself from its own module (registerWebArea): this file knows no area's texts.
import type { INestApplicationContext, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';

import { WEB_PAGES_METADATA } from '../auth/decorators.js';
import type { NavLink } from './components/layout.js';

/** A route as the global prefix's exclusions take it (Nest's RouteInfo). */
export interface WebRoute {
  readonly path: string;
  readonly method: RequestMethod;
}

export interface WebArea {
  /** Its path, without a trailing slash. */
  readonly path: string;
  /** Its name, as the header of its pages shows it. */
  readonly name: string;
  /** What its error pages add to an error's text, by status: where to go from there (not for a refused form). */
  readonly hints: Readonly<Record<number, string>>;
  /**
   * Its sign-in page, when people sign in there: a page asked for without a session (a 401 on a GET) is
   * redirected to it, with the page to return to (web/signed-out-answer.tsx).
   */
  readonly signIn?: string;
  /** Its navigation, in order: every section a page of it may link to (each page shows its viewer's). */
  readonly nav: readonly NavLink[];
}

const areas: WebArea[] = [];

/**
 * Adds an area: each face registers its own from its module's area file (dashboard/dashboard-area.ts,
 * console/console-area.ts), loaded with the module, before the app answers. Areas may not overlap.
 */
export function registerWebArea<A extends WebArea>(area: A): A {
  const taken = areas.find((other) => within(area.path, other.path) || within(other.path, area.path));
  if (taken && taken !== area) throw new Error(`web area ${area.path} overlaps ${taken.path}`);
  if (!taken) areas.push(area);
  return area;
}

/** The areas registered. */
export function webAreas(): readonly WebArea[] {
  return areas;
}

/** The one stylesheet and the small script every area shares, from apps/api/public. */
export const ASSETS_PATH = '/assets';

/**
 * Whether the path of `url` (before any `?`) is `path` or under it. Asked several times per request (the
 * security headers' hook, the filter forms' hook), every api request included: no string is made (for the
 * bearer echo target: docs/decisions.md, "Request path: one hook for the api's own steps").
 */
const within = (url: string, path: string) => {
  if (!url.startsWith(path)) return false;
  const next = url.charCodeAt(path.length);
  return Number.isNaN(next) || next === SLASH || next === QUESTION_MARK;
};
const SLASH = 47;
const QUESTION_MARK = 63;

/** The area `url` (a request URL) is in, if any. */
export function webAreaOf(url: string): WebArea | undefined {
  return areas.find((area) => within(url, area.path));
}

/** Whether `url` is in a web area or its assets: what gets the security headers. */
export function isWebPath(url: string): boolean {
  return webAreaOf(url) !== undefined || within(url, ASSETS_PATH);
}

/**
 * The routes of the web areas' controllers, for the global prefix's exclusions: exactly those routes, so
 * that an api route under /api/v1 may share a name with an area (/api/v1/dashboard/sessions/).
 */
export function webPageRoutes(app: INestApplicationContext): WebRoute[] {
  const routes: WebRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function' || !Reflect.getMetadata(WEB_PAGES_METADATA, metatype)) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (path === undefined || method === undefined) continue;
        routes.push({
          path: [base, path]
            .map((part) => part.replace(/^\/|\/$/g, ''))
            .filter(Boolean)
            .join('/'),
          method,
        });
      }
    }
  }
  return routes;
}

/** The area as its pages show it: its name, its home page and its error pages' hints. */
export function webAreaHome(area: WebArea): {
  name: string;
  home: string;
  hints: Readonly<Record<number, string>>;
} {
  return { name: area.name, home: `${area.path}/`, hints: area.hints };
}
