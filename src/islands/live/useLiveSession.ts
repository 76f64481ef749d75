// A live review session as one review screen takes part in it (issue 41): the admin dialog, the
// portal dialog and the share page. It finds the session open on the item (the stream's hello
// and `started` messages), joins with the tab's stream, and then either presents (the player's
// play, pause, seeks, frame steps, speed, J's backwards shuttle and the version shown go out as
// the session's state) or follows (each state is put on this player: follow.ts), until the
// viewer breaks away, the presenter hands control over or the session ends. Each participant's
// frame, the laser pointers and drawings travel the same way.
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import type { LiveMessage, LiveParticipant, LiveSessionView, LiveState, LiveStateInput, LiveSummary } from '../../shared/schemas/live.ts';
import type { Shape } from '../../shared/schemas/notes.ts';
import { toast } from '../../shared/toast.ts';
import { naturalSize, pictureBox, toUnit } from '../review/shapes.ts';
import type { NoteDrawing } from '../review/DrawingLayer.tsx';
import { SHUTTLE_EVENT } from '../review/player.tsx';
import { $live, liveAs, listen, serverNow, sessionBase } from './channel.ts';
import { applyState, frameAt } from './follow.ts';
import { $captionChoice, $chosenHere, followCaptions } from '../captions/choice.ts';

/** The presenter's state goes out at most this often while scrubbing (the last one always goes). */
const STATE_EVERY_MS = 50;
/** While playing, the presenter says where it is this often (a stall elsewhere is corrected). */
const PLAYING_BEAT_MS = 2000;
const PRESENCE_EVERY_MS = 250;
const POINTER_EVERY_MS = 60;
const DRAW_EVERY_MS = 120;

export interface LiveSessionOptions {
  mediaId: number;
  videoRef: RefObject<HTMLVideoElement | null>;
  fps: number | null | undefined;
  /** The version the screen shows (null while unknown). */
  versionId: number | null;
  /** Shows another version when the presenter switches (absent: the screen cannot, e.g. a share page). */
  onVersion?: (versionId: number) => void;
  /** The drawing being made on this screen, shared as it grows. */
  shapes?: readonly Shape[];
  /** The compare view's pair and mode while it is open on this screen (null: closed). */
  compare?: LiveCompare | null;
  /** Opens (with that pair and mode) or closes the compare view when the presenter does. */
  onCompare?: (compare: LiveCompare | null) => void;
}

export type LiveCompare = NonNullable<LiveState['compare']>;

/** Sends the latest value at most every `ms`, one request at a time; a newer value replaces a waiting one. */
function useLatestSender<T>(send: (v: T) => Promise<unknown>, ms: number) {
  const state = useRef<{ waiting: T | undefined; busy: boolean; last: number; timer: ReturnType<typeof setTimeout> | null }>({ waiting: undefined, busy: false, last: 0, timer: null });
  const sendRef = useRef(send);
  sendRef.current = send;
  const pump = useCallback(() => {
    const s = state.current;
    if (s.busy || s.waiting === undefined) return;
    const wait = s.last + ms - Date.now();
    if (wait > 0) {
      s.timer ??= setTimeout(() => {
        s.timer = null;
        pump();
      }, wait);
      return;
    }
    const v = s.waiting;
    s.waiting = undefined;
    s.busy = true;
    s.last = Date.now();
    sendRef
      .current(v)
      .catch(() => undefined)
      .finally(() => {
        s.busy = false;
        pump();
      });
  }, [ms]);
  useEffect(() => () => {
    if (state.current.timer) clearTimeout(state.current.timer);
  }, []);
  return useCallback(
    (v: T) => {
      state.current.waiting = v;
      pump();
    },
    [pump],
  );
}

export function useLiveSession({ mediaId, videoRef, fps, versionId, onVersion, shapes, compare = null, onCompare }: LiveSessionOptions) {
  const live = useStore($live);
  const base = typeof location === 'undefined' ? null : sessionBase(location.pathname);
  const as = typeof location === 'undefined' ? 'staff' : liveAs(location.pathname);
  const isShare = base?.startsWith('/api/share/') ?? false;
  const url = (sessionId: number, action = '') => `${base}/${sessionId}${action ? `/${action}` : ''}${isShare ? '' : `?as=${as}`}`;
  const open = live.sessions.find((s) => s.mediaId === mediaId) ?? null;
  const [view, setView] = useState<LiveSessionView | null>(null);
  const [state, setState] = useState<LiveState | null>(null);
  const [participants, setParticipants] = useState<LiveParticipant[]>([]);
  const [presenter, setPresenter] = useState<number | null>(null);
  const [following, setFollowing] = useState(true);
  const [laser, setLaser] = useState(false);
  const [pointers, setPointers] = useState<Map<number, { x: number; y: number; name: string }>>(new Map());
  const [drawings, setDrawings] = useState<Map<number, Shape[]>>(new Map());
  const [ended, setEnded] = useState<LiveSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const joined = view !== null;
  const me = view?.me ?? null;
  const presenting = joined && me !== null && presenter === me;
  const sessionId = view?.id ?? null;
  const connection = live.connection;

  const adopt = useCallback((v: LiveSessionView) => {
    setView(v);
    setState(v.state);
    setParticipants(v.participants);
    setPresenter(v.participants.find((p) => p.presenter)?.id ?? null);
    setEnded(null);
  }, []);

  const join = useCallback(
    async (id = open?.id) => {
      if (!id || !connection) return;
      setBusy(true);
      try {
        adopt(await apiJson<LiveSessionView>('POST', url(id, 'join'), { connection }));
        setFollowing(true);
        // A follower sees the presenter's captions until they pick some themselves.
        $chosenHere.set(false);
      } catch (e) {
        toast({ title: 'Could not join the live review', description: errorMessage(e), variant: 'destructive' });
      } finally {
        setBusy(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [open?.id, connection, adopt],
  );

  /** Staff: "Review live" starts a session on the version shown (or joins the open one). */
  const start = useCallback(async () => {
    if (!connection) return;
    setBusy(true);
    try {
      const v = await apiJson<LiveSessionView>('POST', `/api/media/${mediaId}/live`, versionId ? { versionId } : {});
      await join(v.id);
    } catch (e) {
      toast({ title: 'Could not start a live review', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }, [connection, mediaId, versionId, join]);

  // Leaving names this tab's stream, which then stops receiving the session's messages.
  const leaveBody = () => ($live.get().connection ? { connection: $live.get().connection } : {});
  const leave = useCallback(async () => {
    if (sessionId === null) return;
    setView(null);
    await apiJson('POST', url(sessionId, 'leave'), leaveBody()).catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId]);

  const end = useCallback(async () => {
    if (sessionId === null) return;
    try {
      const { summary } = await apiJson<{ summary: LiveSummary }>('POST', url(sessionId, 'end'));
      setEnded(summary);
      setView(null);
    } catch (e) {
      toast({ title: 'Could not end the live review', description: errorMessage(e), variant: 'destructive' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId]);

  const handOver = useCallback(
    async (to: number) => {
      if (sessionId === null) return;
      try {
        await apiJson('POST', url(sessionId, 'control'), { to });
      } catch (e) {
        toast({ title: 'Could not hand over control', description: errorMessage(e), variant: 'destructive' });
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [sessionId],
  );

  // Closing the screen leaves the session (the others see it; a presenter gone for
  // LIVE_PRESENTER_GRACE_MS ends it).
  const leaveUrl = useRef<string | null>(null);
  leaveUrl.current = sessionId === null ? null : url(sessionId, 'leave');
  useEffect(
    () => () => {
      if (leaveUrl.current) void apiJson('POST', leaveUrl.current, leaveBody()).catch(() => undefined);
    },
    [],
  );

  // A new stream (a reconnect gives a new id): join again with it, and take the state as it is now.
  const joinedWith = useRef<string | null>(null);
  useEffect(() => {
    if (sessionId === null || !connection) return;
    if (joinedWith.current === null) {
      joinedWith.current = connection;
      return;
    }
    if (joinedWith.current === connection) return;
    joinedWith.current = connection;
    apiJson<LiveSessionView>('POST', url(sessionId, 'join'), { connection }).then(adopt, () => setView(null));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connection, sessionId, adopt]);
  useEffect(() => {
    if (sessionId === null) joinedWith.current = null;
  }, [sessionId]);

  // The session's messages.
  useEffect(() => {
    return listen((topic, data) => {
      if (topic !== 'live') return;
      const m = data as LiveMessage;
      if (m.type === 'ended' && m.mediaId === mediaId) {
        setEnded(m.summary);
        setView(null);
        return;
      }
      if (!('sessionId' in m) || m.sessionId !== sessionId) return;
      switch (m.type) {
        case 'state':
          setState((cur) => (cur && cur.seq > m.state.seq ? cur : m.state));
          setPresenter(m.presenter);
          break;
        case 'participants':
          setParticipants(m.participants);
          setPresenter(m.participants.find((p) => p.presenter)?.id ?? null);
          break;
        case 'presence':
          setParticipants((list) => list.map((p) => (p.id === m.participant ? { ...p, frame: m.frame, following: m.following } : p)));
          break;
        case 'pointer':
          setPointers((cur) => {
            const next = new Map(cur);
            if (m.x === null || m.y === null) next.delete(m.participant);
            else next.set(m.participant, { x: m.x, y: m.y, name: m.name });
            return next;
          });
          break;
        case 'draw':
          setDrawings((cur) => new Map(cur).set(m.participant, m.shapes));
          break;
        case 'dropped':
          setView(null);
          toast({ title: 'You left the live review', description: m.reason, variant: 'destructive' });
          break;
      }
    });
  }, [sessionId, mediaId]);

  // Following: the presenter's state on this player, again whenever it changes or a new video
  // element (another version, another quality) has its metadata.
  const stateRef = useRef(state);
  stateRef.current = state;
  const followRef = useRef(false);
  followRef.current = joined && following && !presenting;
  const compareKey = state?.compare ? `${state.compare.left}-${state.compare.right}-${state.compare.mode}` : null;
  useEffect(() => {
    if (followRef.current && state) onCompare?.(state.compare ?? null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [compareKey, following, presenting, joined]);
  const followedCaptions = state?.captions ?? null;
  useEffect(() => {
    if (followRef.current && followedCaptions) followCaptions(followedCaptions);
  }, [followedCaptions, following, presenting, joined]);
  useEffect(() => {
    if (!followRef.current || !state) return;
    if (state.versionId !== versionId) {
      onVersion?.(state.versionId);
      return;
    }
    const v = videoRef.current;
    if (!v) return;
    const stop = applyState(v, state, fps, serverNow);
    const drift = state.playing && state.rate > 0 ? setInterval(() => applyState(v, state, fps, serverNow), 500) : null;
    return () => {
      stop?.();
      if (drift) clearInterval(drift);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, following, presenting, joined, versionId, fps]);
  useEffect(() => {
    const onReady = (e: Event) => {
      const s = stateRef.current;
      if (followRef.current && s && e.target === videoRef.current && s.versionId === versionId) applyState(e.target as HTMLVideoElement, s, fps, serverNow);
    };
    document.addEventListener('loadedmetadata', onReady, true);
    return () => document.removeEventListener('loadedmetadata', onReady, true);
  }, [videoRef, versionId, fps]);

  // Presenting: this player's moves go out as the session's state.
  const sendState = useLatestSender((body: LiveStateInput) => apiJson('POST', url(sessionId!, 'state'), body), STATE_EVERY_MS);
  const reverse = useRef<number | null>(null);
  const compareRef = useRef(compare);
  compareRef.current = compare;
  const currentState = useCallback((): LiveStateInput | null => {
    const v = videoRef.current;
    if (!v || !versionId) return null;
    const ms = Math.round(v.currentTime * 1000 * 10) / 10;
    const cmp = compareRef.current;
    const captions = $captionChoice.get();
    if (reverse.current !== null) return { versionId, playing: true, rate: -reverse.current, ms, frame: frameAt(v.currentTime, fps), compare: cmp, captions };
    return { versionId, playing: !v.paused && !v.ended, rate: v.playbackRate || 1, ms, frame: frameAt(v.currentTime, fps), compare: cmp, captions };
  }, [videoRef, versionId, fps]);
  const sentCompare = compare ? `${compare.left}-${compare.right}-${compare.mode}` : null;
  useEffect(() => {
    if (!presenting) return;
    const push = () => {
      const s = currentState();
      if (s) sendState(s);
    };
    const onMedia = (e: Event) => {
      if (e.target !== videoRef.current) return;
      // The shuttle's own steps are not news: followers step back on their own.
      if (e.type === 'seeked' && reverse.current !== null) return;
      push();
    };
    const onShuttle = (e: Event) => {
      const v = videoRef.current;
      if (!v || !(e.target instanceof Node) || !e.target.contains(v)) return;
      reverse.current = (e as CustomEvent<number | null>).detail;
      push();
    };
    const events = ['play', 'pause', 'seeked', 'ratechange'];
    events.forEach((t) => document.addEventListener(t, onMedia, true));
    // The presenter's captions go out as they change (issue 54).
    const stopCaptions = $captionChoice.listen(push);
    document.addEventListener(SHUTTLE_EVENT, onShuttle, true);
    const beat = setInterval(() => {
      const v = videoRef.current;
      if (v && (!v.paused || reverse.current !== null)) push();
    }, PLAYING_BEAT_MS);
    // Taking control (or the version switched): everyone starts from this player.
    push();
    return () => {
      events.forEach((t) => document.removeEventListener(t, onMedia, true));
      stopCaptions();
      document.removeEventListener(SHUTTLE_EVENT, onShuttle, true);
      clearInterval(beat);
    };
  }, [presenting, versionId, currentState, sendState, videoRef, sentCompare]);

  // Everyone: whether it follows, and the frame on this screen once it has broken away (a
  // follower's frame is the presenter's: reporting each of its seeks would multiply every
  // presenter move by the number of people).
  const sendPresence = useLatestSender((body: { frame: number | null; following: boolean }) => apiJson('POST', url(sessionId!, 'presence'), body), PRESENCE_EVERY_MS);
  useEffect(() => {
    if (!joined) return;
    const own = !following && !presenting;
    const report = () => {
      const v = videoRef.current;
      sendPresence({ frame: v && own ? frameAt(v.currentTime, fps) : null, following: following && !presenting });
    };
    report();
    if (!own) return;
    const onMedia = (e: Event) => e.target === videoRef.current && report();
    const events = ['seeked', 'pause', 'play'];
    events.forEach((t) => document.addEventListener(t, onMedia, true));
    return () => events.forEach((t) => document.removeEventListener(t, onMedia, true));
  }, [joined, following, presenting, fps, sendPresence, videoRef]);

  // A follower who takes the player into their own hands breaks away (Follow again brings them back).
  useEffect(() => {
    if (!joined || presenting || !following) return;
    const v = videoRef.current;
    const area = v?.closest('[data-testid="player-area"]');
    if (!area) return;
    const mine = (e: Event) => {
      if (e instanceof KeyboardEvent && (e.ctrlKey || e.metaKey || e.altKey || e.key === 'Tab' || e.key === 'Shift')) return;
      // Drawing on the picture, or pointing at it, is not taking the player.
      if (e.target instanceof Element && e.target.closest('[data-testid="drawing-layer"]')) return;
      setFollowing(false);
    };
    area.addEventListener('keydown', mine);
    area.addEventListener('pointerdown', mine);
    return () => {
      area.removeEventListener('keydown', mine);
      area.removeEventListener('pointerdown', mine);
    };
  }, [joined, presenting, following, videoRef, state?.versionId]);

  // The laser pointer: moves over the picture while it is on.
  const sendPointer = useLatestSender((body: { x: number | null; y: number | null }) => apiJson('POST', url(sessionId!, 'pointer'), body), POINTER_EVERY_MS);
  useEffect(() => {
    const v = videoRef.current;
    if (!joined || !laser || !v) return;
    const move = (e: PointerEvent) => {
      const rect = v.getBoundingClientRect();
      const pic = pictureBox({ width: rect.width, height: rect.height }, naturalSize(v));
      const [x, y] = toUnit(e.clientX - rect.left - pic.left, e.clientY - rect.top - pic.top, pic);
      sendPointer({ x, y });
    };
    const out = () => sendPointer({ x: null, y: null });
    v.addEventListener('pointermove', move);
    v.addEventListener('pointerleave', out);
    return () => {
      v.removeEventListener('pointermove', move);
      v.removeEventListener('pointerleave', out);
      out();
    };
  }, [joined, laser, sendPointer, videoRef, state?.versionId]);

  // This screen's drawing, shared as it grows (and cleared when the note goes).
  const sendDraw = useLatestSender((body: { shapes: Shape[] }) => apiJson('POST', url(sessionId!, 'draw'), body), DRAW_EVERY_MS);
  const sentShapes = useRef<readonly Shape[] | null>(null);
  useEffect(() => {
    if (!joined || !shapes || (sentShapes.current === null && shapes.length === 0) || sentShapes.current === shapes) return;
    sentShapes.current = shapes;
    sendDraw({ shapes: [...shapes] });
  }, [joined, shapes, sendDraw]);

  // What others point at and draw, laid over the picture whatever the playhead (a live mark is
  // about now, not about a moment of the video).
  const overlays = useMemo<NoteDrawing[]>(() => {
    const out: NoteDrawing[] = [];
    for (const [id, list] of drawings) if (id !== me && list.length) out.push({ key: `live-draw-${id}`, ms: 0, endMs: Number.MAX_SAFE_INTEGER, shapes: list });
    for (const [id, p] of pointers) {
      if (id === me) continue;
      const r = 0.012;
      out.push({
        key: `live-pointer-${id}`,
        ms: 0,
        endMs: Number.MAX_SAFE_INTEGER,
        shapes: [{ kind: 'ellipse', color: 'red', points: [[Math.max(0, p.x - r), Math.max(0, p.y - r * 1.7)], [Math.min(1, p.x + r), Math.min(1, p.y + r * 1.7)]] }],
      });
    }
    return out;
  }, [drawings, pointers, me]);

  return {
    /** The session open on the item, joined or not. */
    open,
    joined,
    view,
    state,
    participants,
    presenter,
    me,
    presenting,
    following: following && !presenting,
    busy,
    /** Staff may end a session they do not present (the presenter's screen froze, say). */
    canEnd: !isShare && as === 'staff',
    /** The staff member who started it may take control back from whoever presents. */
    canTakeBack: joined && !presenting && me !== null && view?.starter === true,
    ended,
    laser,
    setLaser,
    overlays,
    pointers,
    start,
    join: () => join(),
    leave,
    end,
    handOver,
    takeBack: () => (me === null ? Promise.resolve() : handOver(me)),
    follow: () => setFollowing(true),
    breakAway: () => setFollowing(false),
    dismissSummary: () => setEnded(null),
  };
}

export type LiveSession = ReturnType<typeof useLiveSession>;
