import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchBox } from './search-box';

describe('SearchBox', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('is labelled and reports the text 250 ms after the last keystroke', () => {
    const onChange = vi.fn();
    render(<SearchBox label="Search images" value="" onChange={onChange} />);
    const box = screen.getByRole('searchbox', { name: 'Search images' }) as HTMLInputElement;
    expect(box.placeholder).toBe('Search images');
    fireEvent.change(box, { target: { value: 'ca' } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(box, { target: { value: 'cat' } });
    act(() => vi.advanceTimersByTime(249));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('cat');
  });

  it('reports at once on Enter and clears on Escape', () => {
    const onChange = vi.fn();
    render(<SearchBox label="Search" value="" onChange={onChange} />);
    const box = screen.getByRole('searchbox') as HTMLInputElement;
    fireEvent.change(box, { target: { value: 'dog' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith('dog');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('');
    expect(onChange).toHaveBeenLastCalledWith('');
    act(() => vi.advanceTimersByTime(1000));
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('lets Escape through when it is empty', () => {
    const onOuterKey = vi.fn();
    render(
      // biome-ignore lint/a11y/noStaticElementInteractions: test harness listening for bubbling keys
      <div onKeyDown={onOuterKey}>
        <SearchBox label="Search" value="" onChange={() => {}} />
      </div>,
    );
    fireEvent.keyDown(screen.getByRole('searchbox'), { key: 'Escape' });
    expect(onOuterKey).toHaveBeenCalledTimes(1);
  });

  it('takes over a value changed from outside', () => {
    const onChange = vi.fn();
    const view = render(<SearchBox label="Search" value="old" onChange={onChange} />);
    view.rerender(<SearchBox label="Search" value="" onChange={onChange} />);
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('');
    expect(onChange).not.toHaveBeenCalled();
  });
});
