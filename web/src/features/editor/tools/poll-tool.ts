/**
 * Our Editor.js poll tool: a question, 2 to 10 options, single or multiple choice, an optional
 * closing time (entered in the reader's time zone, saved in UTC). Output: `{question, options:
 * [{text, votes: 0}], multiple, closesAt}`; the server keeps the vote counts itself.
 */
import type { BlockTool, BlockToolConstructorOptions } from '@editorjs/editorjs';

export const MIN_POLL_OPTIONS = 2;
export const MAX_POLL_OPTIONS = 10;
export const MAX_POLL_TEXT = 300;

export interface PollData {
  question: string;
  options: { text: string; votes: number }[];
  multiple: boolean;
  closesAt: string | null;
}

/** What is wrong with a poll before it is saved, or null. */
export function pollProblem(data: PollData, now = Date.now()): string | null {
  if (!data.question.trim()) return 'A poll needs a question.';
  if (data.question.length > MAX_POLL_TEXT) return `A poll question may be at most ${MAX_POLL_TEXT} characters.`;
  const texts = data.options.map((o) => o.text.trim());
  if (texts.length < MIN_POLL_OPTIONS || texts.length > MAX_POLL_OPTIONS) return `A poll needs ${MIN_POLL_OPTIONS} to ${MAX_POLL_OPTIONS} options.`;
  if (texts.some((t) => t === '')) return 'Every poll option needs text.';
  if (texts.some((t) => t.length > MAX_POLL_TEXT)) return `A poll option may be at most ${MAX_POLL_TEXT} characters.`;
  if (new Set(texts.map((t) => t.toLowerCase())).size !== texts.length) return 'Poll options must differ.';
  if (data.closesAt !== null) {
    const at = new Date(data.closesAt).getTime();
    if (Number.isNaN(at)) return 'The closing time is not a valid date.';
    if (at <= now) return 'The closing time must be in the future.';
  }
  return null;
}

/** `datetime-local` value (the reader's time zone) → ISO-8601 in UTC, or null. */
export function localToUtc(value: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** ISO-8601 → `datetime-local` value in the reader's time zone. */
export function utcToLocal(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

const ICON =
  '<svg width="17" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M4 20V10M10 20V4M16 20v-7M22 20H2"/></svg>';

let counter = 0;

export class PollTool implements BlockTool {
  static get toolbox() {
    return { title: 'Poll', icon: ICON };
  }

  static get isReadOnlySupported() {
    return true;
  }

  private data: PollData;
  private readonly readOnly: boolean;
  private wrapper: HTMLElement | null = null;
  private readonly uid = `poll-tool-${++counter}`;

  constructor({ data, readOnly }: BlockToolConstructorOptions<Partial<PollData>>) {
    this.readOnly = readOnly;
    const options = (data?.options ?? []).map((o) => ({ text: String(o?.text ?? ''), votes: 0 }));
    while (options.length < MIN_POLL_OPTIONS) options.push({ text: '', votes: 0 });
    this.data = { question: data?.question ?? '', options, multiple: Boolean(data?.multiple), closesAt: data?.closesAt ?? null };
  }

  render(): HTMLElement {
    this.wrapper = document.createElement('div');
    this.wrapper.className = 'poll-tool';
    this.draw();
    return this.wrapper;
  }

  private field(label: string, input: HTMLInputElement): HTMLElement {
    const wrap = document.createElement('label');
    wrap.className = 'poll-tool__field';
    const span = document.createElement('span');
    span.textContent = label;
    wrap.append(span, input);
    return wrap;
  }

  private draw() {
    const root = this.wrapper;
    if (!root) return;
    root.innerHTML = '';
    const title = document.createElement('strong');
    title.textContent = 'Poll';
    root.appendChild(title);

    const question = document.createElement('input');
    question.type = 'text';
    question.value = this.data.question;
    question.maxLength = MAX_POLL_TEXT;
    question.disabled = this.readOnly;
    question.placeholder = 'Ask a question';
    question.addEventListener('input', () => (this.data.question = question.value));
    root.appendChild(this.field('Question', question));

    const list = document.createElement('ol');
    list.className = 'poll-tool__options';
    this.data.options.forEach((option, i) => {
      const item = document.createElement('li');
      const input = document.createElement('input');
      input.type = 'text';
      input.value = option.text;
      input.maxLength = MAX_POLL_TEXT;
      input.disabled = this.readOnly;
      input.placeholder = `Option ${i + 1}`;
      input.setAttribute('aria-label', `Option ${i + 1}`);
      input.addEventListener('input', () => (this.data.options[i].text = input.value));
      item.appendChild(input);
      if (!this.readOnly && this.data.options.length > MIN_POLL_OPTIONS) {
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.className = 'poll-tool__remove';
        remove.textContent = 'Remove';
        remove.setAttribute('aria-label', `Remove option ${i + 1}`);
        remove.addEventListener('click', () => {
          this.data.options.splice(i, 1);
          this.draw();
        });
        item.appendChild(remove);
      }
      list.appendChild(item);
    });
    root.appendChild(list);

    if (!this.readOnly && this.data.options.length < MAX_POLL_OPTIONS) {
      const add = document.createElement('button');
      add.type = 'button';
      add.className = 'poll-tool__add';
      add.textContent = 'Add option';
      add.addEventListener('click', () => {
        this.data.options.push({ text: '', votes: 0 });
        this.draw();
        const inputs = root.querySelectorAll<HTMLInputElement>('.poll-tool__options input');
        inputs[inputs.length - 1]?.focus();
      });
      root.appendChild(add);
    }

    const multiple = document.createElement('input');
    multiple.type = 'checkbox';
    multiple.checked = this.data.multiple;
    multiple.disabled = this.readOnly;
    multiple.addEventListener('change', () => (this.data.multiple = multiple.checked));
    const multipleLabel = this.field('Readers may choose several options', multiple);
    multipleLabel.classList.add('poll-tool__check');
    root.appendChild(multipleLabel);

    const closes = document.createElement('input');
    closes.type = 'datetime-local';
    closes.id = `${this.uid}-closes`;
    closes.value = utcToLocal(this.data.closesAt);
    closes.disabled = this.readOnly;
    closes.addEventListener('change', () => (this.data.closesAt = localToUtc(closes.value)));
    root.appendChild(this.field('Closes (optional, your time zone)', closes));

  }

  save(): PollData {
    return {
      question: this.data.question.trim(),
      options: this.data.options.map((o) => ({ text: o.text.trim(), votes: 0 })),
      multiple: this.data.multiple,
      closesAt: this.data.closesAt,
    };
  }

  /**
   * A poll is never dropped from the saved data (Editor.js leaves out blocks that fail
   * validation): the editor page checks every poll with `pollProblem` before it saves and names
   * the one that is not ready.
   */
  validate(): boolean {
    return true;
  }
}
