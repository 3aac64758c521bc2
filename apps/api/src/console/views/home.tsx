// The console's home: who is signed in, with which role and how, and the sections the role opens.
import { Facts, Time } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { CONSOLE_HOME, sectionsFor } from '../nav.js';
import { ConsolePage } from './console-page.js';

export function HomePage(props: { readonly ctx: ConsoleContext }) {
  const { operator, stepUpUntil } = props.ctx;
  const sections = sectionsFor(operator.role).filter((section) => section.href !== CONSOLE_HOME);
  return (
    <ConsolePage ctx={props.ctx} title="Operator console" section={CONSOLE_HOME}>
      <section aria-labelledby="you-heading">
        <h2 id="you-heading">You</h2>
        <Facts
          items={[
            ['Operator', operator.email],
            ['Role', operator.role],
            [
              'Sensitive actions',
              stepUpUntil ? (
                <>
                  no code needed until <Time iso={stepUpUntil.toISOString()} />
                </>
              ) : (
                'ask for a code from your authenticator app'
              ),
            ],
          ]}
        />
      </section>
      <section aria-labelledby="sections-heading">
        <h2 id="sections-heading">Sections</h2>
        {sections.length === 0 ? (
          <p class="empty">Your role opens no section yet.</p>
        ) : (
          <ul>
            {sections.map((section) => (
              <li key={section.href}>
                <a href={section.href}>{section.label}</a>: {section.description}
              </li>
            ))}
          </ul>
        )}
      </section>
    </ConsolePage>
  );
}
