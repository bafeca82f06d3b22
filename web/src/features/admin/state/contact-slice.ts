/** The contact section: messages, handled on a toggle or a reply; live arrivals and replies. */
import { createSlice } from '@reduxjs/toolkit';
import { socketEvents } from '@/features/socket';
import { ADMIN_FALLBACK, adminApi } from '../admin-api';
import type { ContactMessage } from '../admin-types';
import { emptyList, failed, idOf, loaded, loading, pageFrom, prependLive, sectionThunk, str, type Page, type PagedList } from './paged-list';

export interface ContactState {
  contactMessages: PagedList<ContactMessage>;
}

export const initialContactState = (): ContactState => ({ contactMessages: emptyList() });

/** A `newContactMessage` payload as a list item (null when it has no id). */
export function contactFromEvent(payload: Record<string, unknown>): ContactMessage | null {
  const id = idOf(payload, '_id', 'id');
  if (!id) return null;
  return {
    _id: id,
    name: str(payload.name),
    email: str(payload.email),
    subject: str(payload.subject),
    message: str(payload.message),
    isHandled: Boolean(payload.isHandled),
    userId: (payload.userId as string | null | undefined) ?? null,
    reply: (payload.reply as ContactMessage['reply']) ?? null,
    createdAt: str(payload.createdAt) || new Date().toISOString(),
  };
}

/** The message a `contactMessageReplied` payload names. */
export const repliedMessageId = (payload: Record<string, unknown>) => idOf(payload, 'messageId', '_id', 'id');

const thunk = sectionThunk<ContactState>();

export const fetchContactMessages = thunk<Page<ContactMessage>, number | void>('fetchContactMessages', ADMIN_FALLBACK.fetchContactMessages, async (page, { getState }) => {
  const p = page ?? getState().admin.contactMessages.page;
  const r = await adminApi.contactMessages({ page: p });
  return pageFrom(r?.messages, r?.totalMessages, r, p);
});

export const toggleMessageHandled = thunk<{ id: string; isHandled: boolean; message: string }, string>(
  'toggleMessageHandled',
  ADMIN_FALLBACK.toggleMessage,
  async (id, { getState }) => {
    const r = await adminApi.toggleHandled(id);
    const before = getState().admin.contactMessages.items.find((m) => m._id === id)?.isHandled ?? false;
    return { id, isHandled: typeof r?.isHandled === 'boolean' ? r.isHandled : !before, message: r?.message ?? '' };
  },
);

export const replyToContact = thunk<{ id: string; message: string; data: ContactMessage | null }, { id: string; subject: string; message: string }>(
  'replyToContact',
  ADMIN_FALLBACK.replyContact,
  async ({ id, subject, message }) => {
    const r = await adminApi.replyContact(id, { subject, message });
    return { id, message: r?.message ?? 'Reply sent', data: r?.data ?? null };
  },
);

export const contactSlice = createSlice({
  name: 'admin',
  initialState: initialContactState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(fetchContactMessages.pending, (state) => loading(state.contactMessages))
      .addCase(fetchContactMessages.fulfilled, (state, action) => loaded(state.contactMessages, action.payload))
      .addCase(fetchContactMessages.rejected, (state, action) => failed(state.contactMessages, action.payload, ADMIN_FALLBACK.fetchContactMessages))
      .addCase(toggleMessageHandled.fulfilled, (state, action) => {
        const m = state.contactMessages.items.find((i) => i._id === action.payload.id);
        if (m) m.isHandled = action.payload.isHandled;
      })
      .addCase(replyToContact.fulfilled, (state, action) => {
        const m = state.contactMessages.items.find((i) => i._id === action.payload.id);
        if (m) {
          if (action.payload.data) Object.assign(m, action.payload.data);
          m.isHandled = true;
        }
      })
      .addCase(socketEvents.contactMessageReceived, (state, action) => {
        const message = contactFromEvent(action.payload);
        if (message) prependLive(state.contactMessages, message);
      })
      .addCase(socketEvents.contactMessageReplied, (state, action) => {
        const m = state.contactMessages.items.find((i) => i._id === repliedMessageId(action.payload));
        if (m) {
          m.isHandled = true;
          m.reply = { subject: '', message: '', repliedBy: '', ...m.reply, repliedAt: str(action.payload.repliedAt) || m.reply?.repliedAt || '' };
        }
      });
  },
});
