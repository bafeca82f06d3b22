// The editor's own checks before a save: polls, tags, schedule, blob addresses, sizes, and where
// a server error is shown.
import { checkBeforeSave, placeError, toInput } from './components/post-editor';
import { slugify } from '@/features/categories';
import { addTags, emptyDetails, readDraft, writeDraft, clearDraft } from './post-draft';
import { localToUtc, pollProblem, utcToLocal } from './tools/poll-tool';

const poll = (question: string, options: string[], closesAt: string | null = null) => ({
  id: 'v1',
  type: 'poll',
  data: { question, options: options.map((text) => ({ text, votes: 0 })), multiple: false, closesAt },
});

describe('poll checks', () => {
  it.each([
    ['', ['A', 'B'], null, 'A poll needs a question.'],
    ['Q', ['A'], null, 'A poll needs 2 to 10 options.'],
    ['Q', Array.from({ length: 11 }, (_, i) => `o${i}`), null, 'A poll needs 2 to 10 options.'],
    ['Q', ['A', ' '], null, 'Every poll option needs text.'],
    ['Q', ['A', 'a'], null, 'Poll options must differ.'],
    ['Q', ['A', 'B'], '2000-01-01T00:00:00.000Z', 'The closing time must be in the future.'],
  ])('%s %j %s → %s', (question, options, closesAt, message) => {
    expect(pollProblem(poll(question, options, closesAt).data)).toBe(message);
  });

  it('accepts a good poll; closing times go from the local zone to UTC and back', () => {
    expect(pollProblem(poll('Q', ['A', 'B'], '2999-01-01T00:00:00.000Z').data)).toBeNull();
    const utc = localToUtc('2030-05-06T07:08');
    expect(utc).toBe(new Date('2030-05-06T07:08').toISOString());
    expect(utcToLocal(utc)).toBe('2030-05-06T07:08');
    expect(localToUtc('')).toBeNull();
  });
});

describe('tags', () => {
  it('are lowercase, without #, de-duplicated, at most 10', () => {
    expect(addTags(['rust'], '#Rust, Web  Dev ,go').tags).toEqual(['rust', 'web dev', 'go']);
    const full = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(addTags(full, 'one more')).toEqual({ tags: full, problem: 'A post may have at most 10 tags.' });
    expect(addTags([], 'x'.repeat(41)).problem).toBe('A tag may be at most 40 characters.');
  });
});

describe('before a save', () => {
  it('names what is missing next to its field', () => {
    const details = { ...emptyDetails(), title: '', status: 'scheduled' as const, publishAt: '' };
    expect(checkBeforeSave(details, [])).toEqual({
      title: 'A post needs a title.',
      blocks: 'Blocks are required',
      schedule: 'Choose the date and time to publish.',
    });
    const past = { ...emptyDetails(), title: 'T', status: 'scheduled' as const, publishAt: '2001-01-01T10:00' };
    expect(checkBeforeSave(past, [poll('Q', ['A', 'B'])]).schedule).toBe('The publishing time must be in the future.');
    expect(checkBeforeSave({ ...emptyDetails(), title: 'T' }, [poll('Q', ['A'])]).blocks).toBe('Poll 1 (“Q”): A poll needs 2 to 10 options.');
  });

  it("refuses blob: addresses with the server's message", () => {
    const blocks = [{ id: 'i', type: 'image', data: { file: { url: 'blob:http://x/1' } } }];
    expect(checkBeforeSave({ ...emptyDetails(), title: 'T' }, blocks).blocks).toBe(
      'Upload failed: Please convert Blob URLs to base64 or upload images properly.',
    );
  });

  it('sends a scheduled time in UTC and no time otherwise', () => {
    const input = toInput({ ...emptyDetails(), title: ' T ', status: 'scheduled', publishAt: '2030-01-02T03:04' }, []);
    expect(input).toMatchObject({ title: 'T', status: 'scheduled', publishAt: new Date('2030-01-02T03:04').toISOString(), visibility: 'Public', language: 'en' });
    expect(toInput({ ...emptyDetails(), title: 'T' }, []).publishAt).toBeNull();
    expect(toInput({ ...emptyDetails(), title: 'T' }, []).audience).toBe('everyone');
    expect(toInput({ ...emptyDetails(), title: 'T', audience: 'subscribers' }, []).audience).toBe('subscribers');
  });

  it('places server errors next to what caused them', () => {
    expect(placeError("Block 2 (poll 'v1'): a poll needs 2 to 10 options", 400)).toEqual({ blocks: "Block 2 (poll 'v1'): a poll needs 2 to 10 options" });
    expect(placeError('Blocks are required', 400)).toEqual({ blocks: 'Blocks are required' });
    expect(placeError('Request body too large', 413).blocks).toContain('Images may be up to 5 MB each');
    expect(placeError('thumbnail must be an image', 400)).toEqual({ thumbnail: 'thumbnail must be an image' });
    expect(placeError('Title is required', 400)).toEqual({ title: 'Title is required' });
    expect(placeError('Something went wrong', 500)).toEqual({ general: 'Something went wrong' });
  });
});

describe('drafts', () => {
  it("a new post starts as a draft (both seeds: status default draft), in en, Public", () => {
    expect(emptyDetails()).toMatchObject({ status: 'draft', language: 'en', visibility: 'Public', postType: 'Article' });
    expect(toInput(emptyDetails(), []).status).toBe('draft');
  });

  it('are kept in local storage per post and read back', () => {
    writeDraft('new', { details: { ...emptyDetails(), title: 'Half written' }, blocks: [{ id: 'p', type: 'paragraph', data: { text: 'so far' } }] });
    expect(readDraft('new')).toMatchObject({ details: { title: 'Half written' }, blocks: [{ id: 'p' }] });
    expect(readDraft('edit:other')).toBeNull();
    clearDraft('new');
    expect(readDraft('new')).toBeNull();
  });

  it('category slugs come from the name', () => {
    expect(slugify('  Crème Brûlée & Co ')).toBe('creme-brulee-co');
  });
});
