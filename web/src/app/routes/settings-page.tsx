/**
 * `/user-setting`: profile (name, bio, region, website, the daily email), avatar (cropped square in
 * the browser), cookie choice, theme, push notifications (this device, the devices that get them,
 * which kinds and quiet hours), the people one blocked with Unblock, the password, security
 * (passkeys, two-factor sign-in, recent security activity), "Log out everywhere", Developers (API
 * keys, webhook endpoints) and Import (another platform's archive, or a feed). Each save says it
 * succeeded or shows the server's message (the user error clears after 3 seconds).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { Modal } from '@/components/modal';
import { Page } from '@/components/page';
import { formatDate } from '@/lib/format';
import { CONSENT_KEY, storage } from '@/lib/storage';
import { toast } from '@/lib/toast';
import { logoutEverywhere } from '@/features/auth';
import { fetchBlockedUsers, selectBlocks, unblockUser } from '@/features/blocks';
// The followed authors' list reads through the generated endpoints: not part of the follows index,
// which reader pages load first.
import { FollowedAuthors } from '@/features/follows/components/followed-authors';
import { consentChosen, selectCookieConsent } from '@/features/consent';
import { DevelopersSection } from '@/features/developers';
import { ImportSection } from '@/features/import';
import { PreciseLocationControl } from '@/features/location';
import { PushSettings } from '@/features/push';
import { selectTheme, themeChosen, type ThemeMode } from '@/features/theme';
import { DeleteAccountSection, PasskeysSection, PasswordSection, SecurityLog, SessionList, TwoFactorSection, YourDataSection } from '@/features/account';
import { selectProfile, updateCurrentUser, type ProfileChanges } from '@/features/users';
import { AvatarCropper } from '@/features/users/components/avatar-cropper';

const MAX_BIO = 500;
const MAX_SHORT = 100;
export const SAVED = {
  profile: 'Profile saved.',
  avatar: 'Avatar saved.',
  avatarRemoved: 'Avatar removed.',
} as const;

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="panel settings-section" id={id}>
      <h2 id={`${id}-title`} className="section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The outcome of the last save of a section: what the server said, kept until the next try. */
function useOutcome() {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const node = outcome ? (
    <p className={outcome.ok ? 'form-status' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>
      {outcome.text}
    </p>
  ) : null;
  return { node, succeed: (text: string) => setOutcome({ ok: true, text }), fail: (text: string) => setOutcome({ ok: false, text }), clear: () => setOutcome(null) };
}

function ProfileForm() {
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const saving = useAppSelector((state) => state.users.saving);
  const userError = useAppSelector((state) => state.users.error);
  const [form, setForm] = useState({ name: '', bio: '', region: '', website: '', dailyPostEmail: true });
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const outcome = useOutcome();

  useEffect(() => {
    if (profile && loadedFor !== profile._id) {
      setLoadedFor(profile._id);
      setForm({
        name: profile.name ?? '',
        bio: profile.bio ?? '',
        region: profile.region ?? '',
        website: profile.website ?? '',
        dailyPostEmail: (profile as { dailyPostEmail?: boolean }).dailyPostEmail ?? true,
      });
    }
  }, [profile, loadedFor]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    outcome.clear();
    const changes: ProfileChanges = {
      name: form.name.trim(),
      bio: form.bio.trim() || null,
      region: form.region.trim() || null,
      website: form.website.trim() || null,
      dailyPostEmail: form.dailyPostEmail,
    };
    const result = await dispatch(updateCurrentUser(changes));
    if (updateCurrentUser.fulfilled.match(result)) {
      outcome.succeed(SAVED.profile);
      toast.success(SAVED.profile);
    } else outcome.fail(result.payload ?? 'Failed to update user');
  };

  const field = (key: 'name' | 'region' | 'website', label: string, type = 'text', extra: Record<string, unknown> = {}) => (
    <div className="field">
      <label htmlFor={`settings-${key}`}>{label}</label>
      <input id={`settings-${key}`} type={type} value={form[key]} maxLength={key === 'website' ? 2048 : MAX_SHORT} onChange={(e) => setForm({ ...form, [key]: e.target.value })} {...extra} />
    </div>
  );

  return (
    <form className="form form--narrow" onSubmit={(e) => void submit(e)} aria-label="Profile">
      {field('name', 'Name', 'text', { required: true, autoComplete: 'name' })}
      <div className="field">
        <label htmlFor="settings-bio">Bio</label>
        <textarea id="settings-bio" rows={3} maxLength={MAX_BIO} value={form.bio} onChange={(e) => setForm({ ...form, bio: e.target.value })} aria-describedby="settings-bio-count" />
        <small id="settings-bio-count" className="muted">
          {form.bio.length} / {MAX_BIO}
        </small>
      </div>
      {field('region', 'Region', 'text', { placeholder: 'e.g. India or Maharashtra' })}
      {field('website', 'Website', 'url', { placeholder: 'https://example.com', inputMode: 'url' })}
      <label className="check">
        <input type="checkbox" checked={form.dailyPostEmail} onChange={(e) => setForm({ ...form, dailyPostEmail: e.target.checked })} /> Send me the daily email of new posts
      </label>
      {outcome.node ?? (userError ? <p className="form-error">{userError}</p> : null)}
      <div className="form-actions form-actions--start">
        <button type="submit" className="button" disabled={saving || !form.name.trim()}>
          {saving ? 'Saving...' : 'Save profile'}
        </button>
      </div>
    </form>
  );
}

function AvatarSection() {
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const me = useAppSelector((state) => state.auth.user);
  const saving = useAppSelector((state) => state.users.saving);
  const outcome = useOutcome();

  const save = async (avatar: string | null) => {
    outcome.clear();
    const result = await dispatch(updateCurrentUser({ avatar }));
    if (updateCurrentUser.fulfilled.match(result)) {
      const text = avatar ? SAVED.avatar : SAVED.avatarRemoved;
      outcome.succeed(text);
      toast.success(text);
    } else outcome.fail(result.payload ?? 'Failed to update user');
  };

  return (
    <div className="avatar-section">
      <div className="avatar-section__current">
        <Avatar name={profile?.name ?? me?.name} src={profile?.avatar} size={72} />
        {profile?.avatar ? (
          <button type="button" className="button button--small button--ghost" disabled={saving} onClick={() => void save(null)}>
            Remove avatar
          </button>
        ) : (
          <span className="muted small">No avatar: your initials show.</span>
        )}
      </div>
      <AvatarCropper busy={saving} onCropped={(url) => void save(url)} />
      {outcome.node}
    </div>
  );
}

function PreferencesSection() {
  const dispatch = useAppDispatch();
  const consent = useAppSelector(selectCookieConsent);
  const theme = useAppSelector(selectTheme);
  const chooseConsent = (value: boolean) => {
    storage.set(CONSENT_KEY, String(value));
    dispatch(consentChosen(value));
    toast.success(value ? 'Cookies accepted.' : 'Cookies declined.');
  };
  return (
    <div className="form">
      <fieldset className="checks">
        <legend>Cookies</legend>
        <p className="small muted" data-testid="consent-state">
          {consent === null ? 'You have not chosen yet.' : consent ? 'You accepted cookies.' : 'You declined cookies.'}
        </p>
        <div className="form-actions form-actions--start">
          <button type="button" className="button button--small" aria-pressed={consent === true} onClick={() => chooseConsent(true)}>
            Accept
          </button>
          <button type="button" className="button button--small button--ghost" aria-pressed={consent === false} onClick={() => chooseConsent(false)}>
            Decline
          </button>
        </div>
      </fieldset>
      <fieldset className="checks">
        <legend>Theme</legend>
        {(['light', 'dark'] as ThemeMode[]).map((mode) => (
          <label key={mode} className="check">
            <input type="radio" name="theme" value={mode} checked={theme === mode} onChange={() => dispatch(themeChosen(mode))} /> {mode === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </fieldset>
    </div>
  );
}

function BlockedSection() {
  const dispatch = useAppDispatch();
  const blocks = useAppSelector(selectBlocks);
  useEffect(() => {
    void dispatch(fetchBlockedUsers());
  }, [dispatch]);
  const unblock = async (userId: string) => {
    const result = await dispatch(unblockUser({ userId }));
    if (unblockUser.fulfilled.match(result)) toast.success(result.payload);
    else toast.error(result.payload ?? 'Unblock failed');
  };
  return (
    <div>
      {blocks.listStatus === 'loading' && blocks.list.length === 0 ? (
        <p className="muted" role="status">
          Loading...
        </p>
      ) : null}
      {blocks.listStatus === 'failed' ? (
        <div className="feed-state feed-state--error" role="alert">
          <span>{blocks.error}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(fetchBlockedUsers())}>
            Try again
          </button>
        </div>
      ) : null}
      {blocks.listStatus === 'succeeded' && blocks.list.length === 0 ? <p className="muted">You have not blocked anyone.</p> : null}
      {blocks.list.length > 0 ? (
        <ul className="people-list" data-testid="blocked-list">
          {blocks.list.map((u) => (
            <li key={u._id} className="people-list__item">
              <Avatar name={u.name} src={u.avatar} size={36} />
              <span className="people-list__name">
                {u.name}
                {u.blockedAt ? <small className="muted"> · blocked {formatDate(u.blockedAt)}</small> : null}
              </span>
              <button type="button" className="button button--small button--ghost" disabled={blocks.pending.includes(u._id)} onClick={() => void unblock(u._id)}>
                Unblock<span className="visually-hidden"> {u.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function SessionsSection() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    const result = await dispatch(logoutEverywhere());
    setBusy(false);
    setConfirming(false);
    if (logoutEverywhere.fulfilled.match(result)) {
      toast.success('You were logged out everywhere.');
      navigate('/login');
    } else toast.error(result.payload ?? 'Failed to log out everywhere');
  };
  return (
    <div>
      <SessionList />
      <p className="muted small">Ends every session of your account, on every device and browser, this one included.</p>
      <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
        Log out everywhere
      </button>
      {confirming ? (
        <Modal title="Log out everywhere?" labelledBy="logout-all-title" onClose={() => setConfirming(false)}>
          <p>Every device and browser signed in to your account will be logged out, this one too.</p>
          <div className="form-actions">
            <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className="button button--danger" disabled={busy} onClick={() => void go()}>
              Log out everywhere
            </button>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}

/** Passkeys, two-factor sign-in and what happened lately. */
function SecuritySection() {
  return (
    <>
      <section aria-labelledby="passkeys-title" id="passkeys">
        <h3 id="passkeys-title" className="settings-subtitle">
          Passkeys
        </h3>
        <PasskeysSection />
      </section>
      <section aria-labelledby="two-factor-title" id="two-factor">
        <h3 id="two-factor-title" className="settings-subtitle">
          Two-factor sign-in
        </h3>
        <TwoFactorSection />
      </section>
      <section aria-labelledby="security-activity-title" id="security-activity">
        <h3 id="security-activity-title" className="settings-subtitle">
          Recent security activity
        </h3>
        <SecurityLog />
      </section>
    </>
  );
}

export default function SettingsPage() {
  return (
    <Page title="Settings" wide>
      <nav className="settings-nav" aria-label="Settings sections">
        <a href="#profile">Profile</a>
        <a href="#avatar">Avatar</a>
        <a href="#preferences">Cookies and theme</a>
        <a href="#location">Location</a>
        <a href="#new-posts">New posts</a>
        <a href="#notifications">Notifications</a>
        <a href="#blocked">Blocked people</a>
        <a href="#password">Password</a>
        <a href="#security">Security</a>
        <a href="#sessions">Sessions</a>
        <a href="#developers">Developers</a>
        <a href="#import">Import</a>
        <a href="#your-data">Your data</a>
        <a href="#leave">Delete my account</a>
      </nav>
      <div className="settings">
        <Section id="profile" title="Profile">
          <ProfileForm />
        </Section>
        <Section id="avatar" title="Avatar">
          <AvatarSection />
        </Section>
        <Section id="preferences" title="Cookies and theme">
          <PreferencesSection />
        </Section>
        <Section id="location" title="Location">
          <PreciseLocationControl variant="settings" />
        </Section>
        <Section id="new-posts" title="New posts from authors you follow">
          <FollowedAuthors />
        </Section>
        <Section id="notifications" title="Notifications on this device">
          <PushSettings />
        </Section>
        <Section id="blocked" title="Blocked people">
          <BlockedSection />
        </Section>
        <Section id="password" title="Password">
          <PasswordSection />
        </Section>
        <Section id="security" title="Security">
          <SecuritySection />
        </Section>
        <Section id="sessions" title="Sessions">
          <SessionsSection />
        </Section>
        <Section id="developers" title="Developers">
          <DevelopersSection />
        </Section>
        <Section id="import" title="Import">
          <ImportSection />
        </Section>
        <Section id="your-data" title="Your data">
          <YourDataSection />
        </Section>
        <Section id="leave" title="Delete my account">
          <DeleteAccountSection />
        </Section>
      </div>
    </Page>
  );
}
