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
});
