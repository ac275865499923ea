import { userApi } from '@scriptorium/common/api/endpoints/user';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocation, useUnsavedChanges } from '../../app/router/hooks';
import { interceptLinks, internalLinkTarget, navigate } from '../../app/router/navigation';
import { FULL_ROUTE_TABLE } from './route-table';
import { useRoute } from './use-route';

const ORIGIN = window.location.origin;
const plainClick = {
  button: 0,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  defaultPrevented: false,
};

function anchor(href: string, attributes: Record<string, string> = {}): HTMLAnchorElement {
  const element = document.createElement('a');
  element.setAttribute('href', href);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

describe('internalLinkTarget (spec 2.1 link rules)', () => {
  it('follows same-host links that start with a slash', () => {
    expect(internalLinkTarget(plainClick, anchor('/bibliography/'), ORIGIN)).toBe('/bibliography/');
    expect(internalLinkTarget(plainClick, anchor('/documents/a/?sort=title#top'), ORIGIN)).toBe(
      '/documents/a/?sort=title#top',
    );
    expect(internalLinkTarget(plainClick, anchor('/pages/terms/', { target: '_self' }), ORIGIN)).toBe(
      '/pages/terms/',
    );
  });

  it('leaves /media/ and /api/ links to the browser', () => {
    expect(internalLinkTarget(plainClick, anchor('/media/images/1.png'), ORIGIN)).toBeNull();
    expect(internalLinkTarget(plainClick, anchor(userApi.logout.path), ORIGIN)).toBeNull();
  });

  it('leaves links that do not start with a slash or go to another host to the browser', () => {
    expect(internalLinkTarget(plainClick, anchor('https://prosemirror.net/'), ORIGIN)).toBeNull();
    expect(internalLinkTarget(plainClick, anchor(`${ORIGIN}/bibliography/`), ORIGIN)).toBeNull();
    expect(internalLinkTarget(plainClick, anchor('//evil.example/bibliography/'), ORIGIN)).toBeNull();
    expect(internalLinkTarget(plainClick, anchor('relative/path'), ORIGIN)).toBeNull();
    expect(internalLinkTarget(plainClick, anchor('#section'), ORIGIN)).toBeNull();
    expect(internalLinkTarget(plainClick, anchor('mailto:help@example.org'), ORIGIN)).toBeNull();
  });

  it('respects modifier keys, other buttons, new-window targets, downloads and handled clicks', () => {
    const link = anchor('/usermedia/');
    for (const modifier of ['altKey', 'ctrlKey', 'metaKey', 'shiftKey'] as const) {
      expect(internalLinkTarget({ ...plainClick, [modifier]: true }, link, ORIGIN), modifier).toBeNull();
    }
    expect(internalLinkTarget({ ...plainClick, button: 1 }, link, ORIGIN)).toBeNull();
    expect(internalLinkTarget({ ...plainClick, defaultPrevented: true }, link, ORIGIN)).toBeNull();
    expect(internalLinkTarget(plainClick, anchor('/usermedia/', { target: '_blank' }), ORIGIN)).toBeNull();
    expect(internalLinkTarget(plainClick, anchor('/usermedia/', { download: '' }), ORIGIN)).toBeNull();
  });
});

function CurrentPage() {
  const route = useRoute(FULL_ROUTE_TABLE);
  const location = useLocation();
  return (
    <p>
      {route.page} at {location.pathname}
    </p>
  );
}

function Editor({ unsaved }: { unsaved: boolean }) {
  useUnsavedChanges(unsaved);
  return null;
}

describe('in-app navigation', () => {
  let removeInterception: () => void;

  beforeEach(() => {
    window.history.replaceState(null, '', '/');
    removeInterception = interceptLinks();
  });
  afterEach(() => {
    removeInterception();
    vi.restoreAllMocks();
  });

  it('follows internal links with pushState and reselects the page on popstate', () => {
    render(
      <>
        <CurrentPage />
        <a href="/bibliography/">Bibliography</a>
      </>,
    );
    expect(screen.getByText('documents at /')).toBeTruthy();
    const length = window.history.length;
    const click = fireEvent.click(screen.getByRole('link', { name: 'Bibliography' }));
    expect(click).toBe(false); // default prevented: no page load
    expect(window.location.pathname).toBe('/bibliography/');
    expect(window.history.length).toBe(length + 1);
    expect(screen.getByText('bibliography at /bibliography/')).toBeTruthy();

    act(() => {
      window.history.replaceState(null, '', '/usermedia/');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(screen.getByText('usermedia at /usermedia/')).toBeTruthy();
  });

  it('does not intercept a click with a modifier key', () => {
    render(<a href="/bibliography/">Bibliography</a>);
    const click = fireEvent.click(screen.getByRole('link', { name: 'Bibliography' }), { ctrlKey: true });
    expect(click).toBe(true);
    expect(window.location.pathname).toBe('/');
  });

  it('rewrites a change-password address and keeps the key in history state', () => {
    window.history.replaceState(null, '', '/account/change-password/abc/');
    render(<CurrentPage />);
    expect(window.location.pathname).toBe('/account/change-password/');
    expect(window.history.state).toEqual({ changePasswordKey: 'abc' });
    expect(screen.getByText('change-password at /account/change-password/')).toBeTruthy();
  });

  it('asks before leaving a page with unsaved changes and stays when the user cancels', () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { rerender } = render(
      <>
        <CurrentPage />
        <Editor unsaved />
        <a href="/usermedia/">Images</a>
      </>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Images' }));
    expect(confirm).toHaveBeenCalledWith('You have unsaved changes. Do you really want to leave this page?');
    expect(window.location.pathname).toBe('/');

    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    confirm.mockReturnValue(true);
    act(() => {
      expect(navigate('/usermedia/')).toBe(true);
    });
    expect(screen.getByText('usermedia at /usermedia/')).toBeTruthy();

    confirm.mockClear();
    rerender(
      <>
        <CurrentPage />
        <Editor unsaved={false} />
      </>,
    );
    act(() => {
      navigate('/bibliography/');
    });
    expect(confirm).not.toHaveBeenCalled();
    const calmUnload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(calmUnload);
    expect(calmUnload.defaultPrevented).toBe(false);
  });

  it('puts the address back when a back step away from unsaved work is refused', () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    render(
      <>
        <CurrentPage />
        <Editor unsaved />
      </>,
    );
    act(() => {
      navigate('/bibliography/', { force: true });
    });
    act(() => {
      window.history.replaceState(null, '', '/');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(window.location.pathname).toBe('/bibliography/');
    expect(screen.getByText('bibliography at /bibliography/')).toBeTruthy();
  });
});
