import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { MultiSelect, Select, type SelectGroup, type SelectOption } from './select';
import { chooseOption, selectButton, shownChoice } from './select-testing';

const OPTIONS: SelectOption<string>[] = [
  { value: '', label: 'Nobody' },
  { value: '1', label: 'Ann' },
  { value: '2', label: 'Bob', disabled: true },
];

function Harness({ groups, onChange }: { groups?: SelectGroup<string>[]; onChange(value: string): void }) {
  const [value, setValue] = useState('1');
  return (
    <Select
      label="Assign to"
      value={value}
      options={OPTIONS}
      groups={groups}
      describedBy="hint"
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('Select', () => {
  it('names its button by the choice and the label, and takes the empty value as a choice', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    expect(selectButton('Assign to').getAttribute('aria-haspopup')).toBe('listbox');
    expect(shownChoice('Assign to')).toBe('Ann');
    expect(selectButton('Assign to').getAttribute('aria-describedby')).toContain('hint');
    chooseOption('Assign to', 'Nobody');
    expect(onChange).toHaveBeenLastCalledWith('');
    expect(shownChoice('Assign to')).toBe('Nobody');
  });

  it('shows an empty value as its option and sends it with a form', () => {
    render(
      <form aria-label="Form">
        <Select<string> label="Assign to" name="assign" value="" options={OPTIONS} onChange={() => {}} />
      </form>,
    );
    expect(shownChoice('Assign to')).toBe('Nobody');
    expect(new FormData(screen.getByRole('form', { name: 'Form' }) as HTMLFormElement).get('assign')).toBe(
      '',
    );
  });

  it('keeps a disabled option out of reach and shows groups under their title', () => {
    const onChange = vi.fn();
    render(
      <Harness onChange={onChange} groups={[{ title: 'Found', options: [{ value: 'x', label: 'Xena' }] }]} />,
    );
    fireEvent.click(selectButton('Assign to'));
    const list = screen.getByRole('listbox');
    expect(within(list).getByRole('option', { name: 'Bob' }).getAttribute('aria-disabled')).toBe('true');
    const group = within(list).getByRole('group', { name: 'Found' });
    fireEvent.click(within(group).getByRole('option', { name: 'Xena' }));
    expect(onChange).toHaveBeenLastCalledWith('x');
  });

  it('shows the placeholder while nothing is chosen; a hidden label still names the button', () => {
    render(
      <Select
        label="Text style"
        hideLabel
        value={null}
        placeholder=""
        options={OPTIONS}
        onChange={() => {}}
      />,
    );
    expect(screen.queryByText('Text style')).toBeNull();
    expect(selectButton('Text style')).toBeTruthy();
    expect(shownChoice('Text style')).toBe('');
  });

  it('chooses several values in a MultiSelect, the list staying open', () => {
    const onChange = vi.fn();
    render(
      <MultiSelect<string>
        label="Languages"
        value={['1']}
        options={OPTIONS}
        placeholder="(none)"
        onChange={onChange}
      />,
    );
    fireEvent.click(selectButton('Languages'));
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Nobody' }));
    expect(onChange).toHaveBeenLastCalledWith(['1', '']);
    expect(screen.getByRole('listbox')).toBeTruthy();
  });
});
