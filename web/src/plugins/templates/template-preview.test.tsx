import { standardDefinition } from '@scriptorium/common/plugins/templates-api';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TemplatePreview } from './template-preview';

describe('TemplatePreview', () => {
  it('draws the empty document of the template, its title named rather than an empty heading', async () => {
    render(<TemplatePreview title="Thesis" definition={standardDefinition()} />);
    const preview = await screen.findByTestId('template-preview');
    expect(preview.querySelector('.doc-title')?.textContent).toBe('Title');
    expect([...preview.querySelectorAll('.doc-part')].map((part) => part.getAttribute('data-title'))).toEqual(
      ['Subtitle', 'Authors', 'Abstract', 'Keywords', 'Body'],
    );
  });

  it("shows each part's help text above it, describing it, and a table of contents and separator", async () => {
    const definition = standardDefinition();
    definition.parts[2] = { ...definition.parts[2], help: 'At most 200 words.' };
    definition.parts.push(
      { ...definition.parts[3], id: 'contents', kind: 'toc_part', title: 'Contents', help: '' },
      { ...definition.parts[3], id: 'divider', kind: 'separator_part', title: 'Divider', help: '' },
    );
    render(<TemplatePreview title="Thesis" definition={definition} />);
    const preview = await screen.findByTestId('template-preview');
    const help = preview.querySelector('.doc-part-help') as HTMLElement;
    expect(help.textContent).toBe('At most 200 words.');
    const abstract = help.nextElementSibling as HTMLElement;
    expect(abstract.dataset.partId).toBe('abstract');
    expect(abstract.getAttribute('aria-describedby')).toBe(help.id);
    expect(
      screen.getByRole('navigation', { name: 'Contents' }).querySelector('.doc-toc-title')?.textContent,
    ).toBe('Contents');
    expect(preview.querySelectorAll('.doc-separator_part hr')).toHaveLength(1);
  });
});
