// The frame of every page of a web area: skip link, header with who is signed in and sign-out, the area's
// navigation, and the main content under one h1. The stylesheet and the one script are external files
// (the Content-Security-Policy allows nothing inline).
import type { ComponentChildren } from 'preact';

import { ASSETS_PATH } from '../web-areas.js';
import { CsrfField } from './forms.js';

export interface NavLink {
  readonly href: string;
  readonly label: string;
}

export interface LayoutProps {
  readonly title: string;
  /** The area's name and home page, e.g. "Organisation dashboard", "/dashboard/". */
  readonly area: { readonly name: string; readonly home: string };
  readonly nav?: readonly NavLink[];
  /** The nav link of this page (marked aria-current). */
  readonly current?: string;
  /** Who is signed in, shown in the header. */
  readonly who?: ComponentChildren;
  readonly signOut?: { readonly action: string; readonly csrf: string };
  /**
   * The page is of a sandbox organisation: a marker in words on top of every page, and in the title, so
   * that test data is never taken for live data (docs/testing.md).
   */
  readonly sandbox?: boolean;
  /** More elements for the head (a meta refresh). */
  readonly head?: ComponentChildren;
  readonly children?: ComponentChildren;
}

export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.sandbox ? 'SANDBOX · ' : ''}${props.title} · ${props.area.name}`}</title>
        <link rel="stylesheet" href={`${ASSETS_PATH}/web.css`} />
        <link rel="stylesheet" href={`${ASSETS_PATH}/tables.css`} />
        <link rel="stylesheet" href={`${ASSETS_PATH}/forms.css`} />
        <link rel="stylesheet" href={`${ASSETS_PATH}/charts.css`} />
        <script src={`${ASSETS_PATH}/web.js`} defer />
        {props.head}
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <header class="top-bar">
          {props.sandbox && (
            <p class="sandbox-banner" role="note">
              <strong>SANDBOX</strong> · a test organisation: its users, orders and events are test data
            </p>
          )}
          <a class="brand" href={props.area.home}>
            {props.area.name}
          </a>
          {props.who !== undefined && <span class="who">{props.who}</span>}
          {props.signOut && (
            <form method="post" action={props.signOut.action} class="sign-out">
              <CsrfField token={props.signOut.csrf} />
              <button type="submit" class="button-quiet">
                Sign out
              </button>
            </form>
          )}
        </header>
        {props.nav && props.nav.length > 0 && (
          <nav aria-label="Sections" class="sections">
            <ul>
              {props.nav.map((link) => (
                <li key={link.href}>
                  <a href={link.href} aria-current={link.href === props.current ? 'page' : undefined}>
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <main id="main" tabIndex={-1}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}
