import type { ReactElement } from 'react';

function stubContent(name: string, props: object): ReactElement {
  return (
    <section>
      <h1>{`${name} screen`}</h1>
      <output aria-label="props">{JSON.stringify(props)}</output>
    </section>
  );
}

/**
 * Stand-ins for the screens of later issues, so shell and router tests check what the router hands
 * to a screen without depending on how that screen loads its data. Stateless, hence no hooks.
 */
export function stubPage(name: string): (props: object) => ReactElement {
  return (props) => stubContent(name, props);
}
