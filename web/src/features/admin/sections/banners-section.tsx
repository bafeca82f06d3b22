import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate } from '@/lib/format';
import { safeHref } from '@/lib/safe-url';
import {
  createBannerNotification,
  deactivateBannerNotification,
  deleteAllBannerNotifications,
  fetchBannerNotifications,
  selectAdmin,
} from '../admin-slice';
import { ListState } from '../components/list-state';
import { useConfirmedAction } from '../components/use-confirmed-action';

/** ISO 3166-1 alpha-2 codes: the regions a banner can be limited to, besides 'global'. */
const COUNTRY_CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
    ' ',
  );

export function regionOptions(): { value: string; label: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    names = null;
  }
  const countries = COUNTRY_CODES.map((code) => ({ value: code, label: `${names?.of(code) ?? code} (${code})` })).sort((a, b) => a.label.localeCompare(b.label));
  return [{ value: 'global', label: 'Everywhere (global)' }, ...countries];
}

function regionLabel(region: string | null | undefined): string {
  if (!region || region === 'global') return 'global';
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(region.toUpperCase()) ?? region;
  } catch {
    return region;
  }
}

function CreateBanner() {
  const dispatch = useAppDispatch();
  const regions = useMemo(regionOptions, []);
  const [form, setForm] = useState({ title: '', message: '', link: '', region: 'global', expiresAt: '', sticky: false, urgent: false });
  const [error, setError] = useState<string | null>(null);
  const [ok, setOk] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setOk(null);
    if (form.link.trim() && safeHref(form.link.trim()) === null) {
      setError('The link must be an http(s) address or a path inside the site.');
      return;
    }
    let expiresAt: string | undefined;
    if (form.expiresAt) {
      const at = new Date(form.expiresAt);
      if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) {
        setError('The expiry must be in the future.');
        return;
      }
      expiresAt = at.toISOString();
    }
    setBusy(true);
    const result = await dispatch(
      createBannerNotification({
        title: form.title.trim(),
        message: form.message.trim(),
        region: form.region,
        ...(form.link.trim() ? { link: form.link.trim() } : {}),
        ...(expiresAt ? { expiresAt } : {}),
        sticky: form.sticky,
        ...(form.urgent && form.region === 'global' ? { urgent: true } : {}),
      }),
    );
    setBusy(false);
    if (createBannerNotification.fulfilled.match(result)) {
      setOk('The banner is showing now.');
      setForm({ title: '', message: '', link: '', region: form.region, expiresAt: '', sticky: false, urgent: false });
    } else setError(result.payload ?? 'Failed to create banner notification');
  };
  return (
    <form className="form dashboard-block" onSubmit={(e) => void submit(e)} aria-labelledby="banner-new-title">
      <h3 id="banner-new-title">New banner</h3>
      <div className="field">
        <label htmlFor="banner-title">Title</label>
        <input id="banner-title" required maxLength={120} value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="banner-message">Message</label>
        <textarea id="banner-message" required rows={2} maxLength={500} value={form.message} onChange={(e) => setForm({ ...form, message: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="banner-link">Link (optional)</label>
        <input id="banner-link" placeholder="https://... or /post/..." value={form.link} onChange={(e) => setForm({ ...form, link: e.target.value })} />
      </div>
      <div className="grid-3">
        <div className="field">
          <label htmlFor="banner-region">Region</label>
          <select id="banner-region" value={form.region} onChange={(e) => setForm({ ...form, region: e.target.value })}>
            {regions.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="banner-expires">Expires (optional)</label>
          <input id="banner-expires" type="datetime-local" value={form.expiresAt} onChange={(e) => setForm({ ...form, expiresAt: e.target.value })} />
        </div>
        <label className="checkbox checkbox--field">
          <input type="checkbox" checked={form.sticky} onChange={(e) => setForm({ ...form, sticky: e.target.checked })} />
          Sticky (stays after its expiry until deactivated)
        </label>
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.urgent && form.region === 'global'}
          disabled={form.region !== 'global'}
          aria-describedby="banner-urgent-help"
          onChange={(e) => setForm({ ...form, urgent: e.target.checked })}
        />
        Urgent: also send it as a push notification
      </label>
      <p id="banner-urgent-help" className="muted">
        Reaches the devices of people who turned notifications on and have no tab open (global banners only).
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {ok ? (
        <p className="form-status" role="status">
          {ok}
        </p>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button--small" disabled={busy || !form.title.trim() || !form.message.trim()}>
          {busy ? 'Creating...' : 'Create banner'}
        </button>
      </div>
    </form>
  );
}

export function BannersSection() {
  const dispatch = useAppDispatch();
  const { bannerNotifications } = useAppSelector(selectAdmin);
  const deleteAll = useConfirmedAction<number>(() => dispatch(deleteAllBannerNotifications()));
  useEffect(() => {
    void dispatch(fetchBannerNotifications());
  }, [dispatch]);
  const list = bannerNotifications.items;
  const now = Date.now();
  const withState = list.map((banner) => {
    const expired = !banner.sticky && banner.expiresAt ? new Date(banner.expiresAt).getTime() <= now : false;
    const state = banner.isActive === false ? 'inactive' : expired ? 'expired' : 'active';
    return { banner, state };
  });
  const groups: [string, typeof withState][] = [
    ['Showing now', withState.filter((b) => b.state === 'active')],
    ['Past banners', withState.filter((b) => b.state !== 'active')],
  ];
  return (
    <div className="two-columns">
      <CreateBanner />
      <section className="dashboard-block" aria-labelledby="banner-list-title">
        <div className="panel__header">
          <h3 id="banner-list-title">All banners</h3>
          <button type="button" className="button button--small button--danger-ghost" disabled={list.length === 0} onClick={() => deleteAll.ask(list.length)}>
            Delete all
          </button>
        </div>
        <ListState status={bannerNotifications.status} error={bannerNotifications.error} count={list.length} emptyText="No banners." onRetry={() => void dispatch(fetchBannerNotifications())} />
        {groups.map(([heading, items]) =>
          items.length > 0 ? (
            <div key={heading}>
              <h4>{heading}</h4>
              <ul className="card-list">
                {items.map(({ banner: b, state }) => (
                  <li key={b._id} className="card">
                    <div className="card__head">
                      <strong>{b.title}</strong>
                      <div className="chips">
                        <span className={`chip ${state === 'active' ? 'chip--ok' : 'chip--muted'}`}>{state}</span>
                        <span className="chip">{regionLabel(b.region)}</span>
                        {b.sticky ? <span className="chip chip--info">sticky</span> : null}
                        {b.urgent ? <span className="chip chip--info">pushed</span> : null}
                      </div>
                    </div>
                    <p className="card__text">{b.message}</p>
                    <p className="muted small">
                      {b.link ? <>Link: {b.link} · </> : null}
                      {b.expiresAt ? <>Expires {formatDate(b.expiresAt)} · </> : null}
                      {(b.dismissedBy ?? []).length} dismissed
                    </p>
                    {state === 'active' ? (
                      <button type="button" className="button button--small button--ghost" aria-label={`Deactivate “${b.title}”`} onClick={() => void dispatch(deactivateBannerNotification(b._id))}>
                        Deactivate
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null,
        )}
      </section>
      {deleteAll.dialog((count) => ({
        title: 'Delete every banner?',
        confirmLabel: 'Delete all banners',
        danger: true,
        body: <p>This removes all {count} banners, active or not, of every region; they disappear from every open page at once.</p>,
      }))}
    </div>
  );
}
