import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Block } from '@/types/entities';
import { PostBlocks } from './post-blocks';

const every: Block[] = [
  { id: 'p', type: 'paragraph', data: { text: 'Hello <b>bold</b> <a href="https://example.com">link</a> <img src=x onerror=alert(1)><script>alert(1)</script>' } },
  { id: 'h', type: 'header', data: { text: 'Section', level: 3 } },
  { id: 'l', type: 'list', data: { style: 'ordered', items: [{ content: 'one', items: [{ content: 'nested', items: [] }] }, 'two'] } },
  { id: 'q', type: 'quote', data: { text: 'Quoted', caption: 'Someone', alignment: 'left' } },
  { id: 'c', type: 'code', data: { code: '<b>not html</b>' } },
  { id: 'd', type: 'delimiter', data: {} },
  { id: 'i', type: 'image', data: { file: { url: '/media/abc.png' }, caption: 'A <i>picture</i>' } },
  { id: 'e', type: 'embed', data: { service: 'youtube', source: 'https://youtu.be/x', embed: 'https://www.youtube.com/embed/x', caption: 'Video' } },
  { id: 'bad', type: 'embed', data: { service: 'evil', source: 'https://evil.example/', embed: 'https://evil.example/frame' } },
  { id: 't', type: 'table', data: { withHeadings: true, content: [['Name', 'Score'], ['Ada', '10']] } },
  { id: 'k', type: 'checklist', data: { items: [{ text: 'done', checked: true }, { text: 'todo', checked: false }] } },
  { id: 'v', type: 'poll', data: { question: 'Q?' } },
  { id: 'tip', type: 'tip', data: {} },
  { id: 'x', type: 'raw', data: { html: '<script>alert(1)</script>' } },
];

describe('PostBlocks', () => {
  it('renders every block type, safely', () => {
    const { container } = render(
      <MemoryRouter>
        <PostBlocks
          blocks={every}
          renderPoll={(b) => <div data-testid="poll">{String(b.data?.question)}</div>}
          renderTip={(b) => <div data-testid="support-card">{b.id}</div>}
        />
      </MemoryRouter>,
    );
    expect(container.querySelector('p b')?.textContent).toBe('bold');
    const link = screen.getByRole('link', { name: 'link' });
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(link).toHaveAttribute('target', '_blank');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(screen.getByRole('heading', { level: 3, name: 'Section' })).toBeInTheDocument();
    expect(screen.getByText('nested').closest('ol')?.parentElement?.closest('ol')).not.toBeNull();
    expect(screen.getByText('Quoted').tagName).toBe('BLOCKQUOTE');
    expect(container.querySelector('pre code')?.textContent).toBe('<b>not html</b>');
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(container.querySelector('hr.block-delimiter')).not.toBeNull();
    expect(screen.getByRole('img', { name: 'A picture' })).toHaveAttribute('src', '/media/abc.png');
    const frames = container.querySelectorAll('iframe');
    expect(frames).toHaveLength(1);
    expect(frames[0]).toHaveAttribute('src', 'https://www.youtube.com/embed/x');
    expect(frames[0].getAttribute('sandbox')).toContain('allow-scripts');
    expect(frames[0]).toHaveAttribute('title', 'Video');
    expect(screen.getByRole('link', { name: 'https://evil.example/' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Ada' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Done' })).toBeChecked();
    expect(screen.getByTestId('poll')).toHaveTextContent('Q?');
    expect(screen.getByTestId('support-card')).toHaveTextContent('tip');
  });

  it('draws a tip block only where the page gives it a card', () => {
    const { container } = render(<PostBlocks blocks={[{ id: 'tip', type: 'tip', data: {} }]} />);
    expect(container.querySelector('.post-body')?.childElementCount).toBe(0);
  });

  it('gives a picture its own text alternative when it has one, else its caption', () => {
    render(
      <PostBlocks
        blocks={[
          { id: 'a', type: 'image', data: { file: { url: '/media/a.png' }, caption: 'At <i>dawn</i>', alt: 'A lake under mist' } },
          { id: 'b', type: 'image', data: { file: { url: '/media/b.png' }, caption: 'At <i>dusk</i>' } },
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: 'A lake under mist' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'At dusk' })).toBeInTheDocument();
  });

  it('shows no image whose address is not http(s) or the media store', () => {
    const { container } = render(<PostBlocks blocks={[{ id: 'i', type: 'image', data: { file: { url: 'javascript:alert(1)' } } }]} />);
    expect(container.querySelector('img')).toBeNull();
  });
});
