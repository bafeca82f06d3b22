import { allowedEmbed } from './embeds';

describe('allowedEmbed', () => {
  it.each([
    ['youtube', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['vimeo', 'https://player.vimeo.com/video/76979871'],
    ['codepen', 'https://codepen.io/team/embed/preview/abcd'],
  ])('frames %s players', (service, embed) => {
    expect(allowedEmbed(service, embed)).toBe(embed);
  });

  it.each([
    ['youtube', 'https://evil.example/embed/x'],
    ['youtube', 'javascript:alert(1)'],
    ['twitter', 'https://twitframe.com/show?url=x'],
    ['codepen', 'https://codepen.io/team/pen/abcd'],
    ['vimeo', 'https://player.vimeo.com/video/1" onload="x'],
    [undefined, 'https://www.youtube.com/embed/x'],
  ])('refuses %s %s', (service, embed) => {
    expect(allowedEmbed(service, embed)).toBeNull();
  });
});
