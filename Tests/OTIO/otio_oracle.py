#!/usr/bin/env python3
"""The OpenTimelineIO package as the oracle of Segue's OTIO reader (Tests/SegueEndToEndTests/OTIOTests.swift).

  otio_oracle.py make MEDIA_DIR OUT_DIR   writes the generated timelines (NAME.otio) into OUT_DIR and, for each, what
                                          OTIO says it is (NAME.expected.json)
  otio_oracle.py expect FILE.otio...      prints {FILE: expected} for timelines made elsewhere (by the adapters)

MEDIA_DIR holds the counter clips a.mkv ... e.mkv (150 frames at 24 fps; frame N of clip K is flat: Y = 40 + 4 (N mod
40), Cb = 96 + 16 K, Cr = 104 + 16 (N div 40)). The expectations come from OTIO's own model: `duration()`,
`range_in_parent()`, `range_of_child()`, `trimmed_range()`, `available_range()`, the transitions' offsets, the time
warps' scalars. For every clip: its range on the timeline, cut to cut, and the range Segue should give it with the
transitions' handles (shortened where the media's available range lacks them); for every output frame: the clip and
media frame on top (or a mix of two, with its progress, inside a transition; or black).
"""
import json
import math
import os
import sys
from fractions import Fraction

import opentimelineio as otio

R = otio.opentime.RationalTime
TR = otio.opentime.TimeRange
RATE = 24
MEDIA_FRAMES = 150


def ref(media_dir, name, start=0):
    return otio.schema.ExternalReference(target_url="file://" + os.path.join(media_dir, name),
                                         available_range=TR(R(start, RATE), R(MEDIA_FRAMES, RATE)))


def clip(media_dir, name, start, duration, media_start=0, scalar=None, freeze=False):
    c = otio.schema.Clip(name=name + "@" + str(start), media_reference=ref(media_dir, name + ".mkv", media_start),
                         source_range=TR(R(media_start + start, RATE), R(duration, RATE)))
    if scalar is not None:
        c.effects.append(otio.schema.LinearTimeWarp(time_scalar=scalar))
    if freeze:
        c.effects.append(otio.schema.FreezeFrame())
    return c


def gap(duration):
    return otio.schema.Gap(source_range=TR(R(0, RATE), R(duration, RATE)))


def dissolve(in_frames, out_frames):
    return otio.schema.Transition(in_offset=R(in_frames, RATE), out_offset=R(out_frames, RATE), transition_type="SMPTE_Dissolve")


def track(*items, kind="Video", source_range=None):
    t = otio.schema.Track(kind=kind, source_range=source_range)
    for i in items:
        t.append(i)
    return t


def timeline(name, *tracks, global_start=None):
    tl = otio.schema.Timeline(name=name)
    if global_start is not None:
        tl.global_start_time = global_start
    for t in tracks:
        tl.tracks.append(t)
    return tl


def scenarios(m):
    """The generated timelines: name -> Timeline."""
    out = {}
    out["cuts"] = timeline("cuts", track(clip(m, "a", 0, 12), clip(m, "b", 20, 12), gap(6), clip(m, "c", 0, 10)))
    out["tracks"] = timeline("tracks",
                             track(clip(m, "a", 0, 30)),
                             track(gap(6), clip(m, "b", 10, 12), gap(4), clip(m, "c", 50, 5)),
                             track(gap(20), clip(m, "d", 3, 6)))
    nested = otio.schema.Stack(name="nested", source_range=TR(R(4, RATE), R(12, RATE)))
    nested.append(track(clip(m, "b", 0, 20)))
    nested.append(track(gap(8), clip(m, "c", 30, 10)))
    out["nested"] = timeline("nested",
                             track(clip(m, "a", 0, 10), nested, clip(m, "d", 60, 8)),
                             track(gap(26), clip(m, "e", 5, 4)))
    out["handles"] = timeline("handles", track(clip(m, "a", 10, 24), dissolve(6, 6), clip(m, "b", 10, 20), dissolve(4, 8), clip(m, "c", 40, 16)))
    # The media lacks handles: a ends at the media's end (no out handle), b starts 2 frames in (2 of the 6 in frames).
    out["short_handles"] = timeline("short_handles", track(clip(m, "a", 126, 24), dissolve(6, 6), clip(m, "b", 2, 20), dissolve(5, 5), clip(m, "c", 0, 12)))
    out["warps"] = timeline("warps", track(clip(m, "a", 0, 12, scalar=2.0), clip(m, "b", 4, 12, scalar=0.5), clip(m, "c", 10, 8, freeze=True),
                                           clip(m, "d", 20, 12, scalar=1.5), dissolve(4, 4), clip(m, "e", 30, 12, scalar=2.0)))
    # DaVinci Resolve's export: Clip.2, timecode-based media (available ranges from 01:00:00:00), a 01:00:00:00
    # global start, centred 30/30-frame dissolves.
    tc = 86400
    out["resolve"] = timeline("resolve",
                              track(clip(m, "a", 0, 40, media_start=tc), dissolve(30, 30), clip(m, "b", 30, 64, media_start=tc), dissolve(30, 30),
                                    clip(m, "c", 40, 45, media_start=tc)),
                              global_start=R(tc, RATE))
    # The CMX 3600 adapter's dissolves: in_offset 0, out_offset the dissolve's length.
    out["cmx"] = timeline("cmx", track(clip(m, "a", 0, 24), dissolve(0, 12), clip(m, "b", 24, 24), dissolve(0, 10), clip(m, "c", 12, 20)))
    out["missing"] = timeline("missing", track(clip(m, "a", 0, 12), gap(4)), track(gap(3), clip(m, "b", 0, 10)))
    missing = out["missing"]
    missing.tracks[0][0].media_reference = otio.schema.ExternalReference(target_url="file://" + os.path.join(m, "gone.mov"))
    missing.tracks[1][1].media_reference = otio.schema.MissingReference()
    # Written in the old schemas afterwards (`downgrade`): Sequence.1 tracks, Clip.1 clips with one media_reference.
    out["old_schema"] = timeline("old_schema", track(clip(m, "c", 5, 14), dissolve(3, 3), clip(m, "d", 9, 10), gap(5), clip(m, "e", 0, 6)))
    disabled = timeline("disabled", track(clip(m, "a", 0, 10), clip(m, "b", 0, 10), clip(m, "c", 0, 10)))
    disabled.tracks[0][1].enabled = False
    out["disabled"] = disabled
    # Transitions at a track's start and end: OTIO's Track.available_range() adds the first one's in_offset and the
    # last one's out_offset; the in_offset lies before the first item (a fade from nothing), the out_offset after the last.
    out["edges"] = timeline("edges", track(dissolve(6, 4), clip(m, "a", 10, 24), dissolve(3, 3), clip(m, "b", 20, 12), dissolve(5, 7)))
    # The media lack the handles: c has 2 frames before its range (of the 6 asked), d none after (of the 6 asked).
    out["edges_short"] = timeline("edges_short", track(dissolve(6, 4), clip(m, "c", 2, 20), clip(m, "d", 140, 10), dissolve(4, 6)))
    return out


# --- expectations ---------------------------------------------------------------------------------------------------

def frames(t):
    """A RationalTime in frames at RATE, exactly (a Fraction)."""
    return Fraction(t.value).limit_denominator(1 << 20) * RATE / Fraction(t.rate).limit_denominator(1 << 20)


def media_id(c):
    r = c.media_reference
    if isinstance(r, otio.schema.ExternalReference):
        p = r.target_url.replace("file://", "")
        if os.path.exists(p):
            return "abcde".index(os.path.basename(p)[0]), p
    if isinstance(r, otio.schema.GeneratorReference) and r.generator_kind.lower() == "black":
        return None, None
    return None, None


def available(c):
    """The media's available range; without one (an EDL's clips), the counter clip's own: frames 0 to 150."""
    try:
        return c.available_range()
    except otio.exceptions.CannotComputeAvailableRangeError:
        return TR(R(0, RATE), R(MEDIA_FRAMES, RATE))


def scalar_of(c):
    s = 1.0
    freeze = False
    for e in c.effects:
        if isinstance(e, otio.schema.FreezeFrame):
            freeze = True
        elif isinstance(e, otio.schema.LinearTimeWarp):
            s *= e.time_scalar
    return (0.0 if freeze else s)


class Oracle:
    def __init__(self, tl):
        self.tl = tl
        self.clips = []
        self.samples = {}

    def handles(self, tr, index):
        """The transitions around child `index` of `tr`, with their offsets shortened where media lacks handles and to a
        cut when less than a frame remains: (in before it, out of the one before it, in of the one after it, out after)."""
        return self.fitted(tr, index - 1) if index > 0 else None, self.fitted(tr, index + 1) if index + 1 < len(tr) else None

    def fitted(self, tr, k):
        """A transition at a track's start joins nothing to its first item (a = None), one at its end its last item to
        nothing (b = None)."""
        t = tr[k]
        if not isinstance(t, otio.schema.Transition):
            return None
        a, b = tr[k - 1] if k > 0 else None, tr[k + 1] if k + 1 < len(tr) else None
        want_in, want_out = frames(t.in_offset), frames(t.out_offset)
        have_in, have_out = want_in, want_out
        if isinstance(b, otio.schema.Clip) and media_id(b)[0] is not None:
            s = abs(scalar_of(b))
            if s > 0:
                have_in = min(want_in, (frames(b.trimmed_range().start_time) - frames(available(b).start_time)) / Fraction(s))
        if isinstance(a, otio.schema.Clip) and media_id(a)[0] is not None:
            s = abs(scalar_of(a))
            if s > 0:
                end = frames(available(a).end_time_exclusive())
                used = frames(a.trimmed_range().start_time) + frames(a.trimmed_range().duration) * Fraction(s)
                have_out = min(want_out, (end - used) / Fraction(s))
        if have_in + have_out < 1:
            return (Fraction(0), Fraction(0))
        return (have_in, have_out)

    def media_frame(self, c, local):
        """The media frame clip `c` shows `local` frames (track time) after its range's start (negative: in its handle)."""
        s = scalar_of(c)
        start = frames(c.trimmed_range().start_time) - frames(available(c).start_time)
        if s == 0:
            return int(start)
        if s < 0:
            d = frames(c.trimmed_range().duration)
            return int(math.floor(start + (d - local) * Fraction(-s) - Fraction(1, 2)))
        return int(math.floor(start + local * Fraction(s) + Fraction(1, 1000000)))

    def walk(self, comp, origin, window, z):
        """Visits composition `comp`: `origin` is the timeline frame of its visible time 0, `window` the part of its
        visible time shown (frames), z its place in the stacking order (a path of child indices)."""
        start_in = frames(comp.trimmed_range().start_time)
        if isinstance(comp, otio.schema.Stack):
            # Its children start at its internal time 0, which is visible time -start_in.
            for k, child in enumerate(comp):
                lo, hi = max(window[0] + start_in, Fraction(0)), min(window[1] + start_in, frames(child.duration()))
                if lo < hi:
                    self.walk(child, origin - start_in, (lo, hi), z + [k])
            return
        # A transition at the track's start puts its in_offset before the first item.
        lead = frames(comp[0].in_offset) if len(comp) and isinstance(comp[0], otio.schema.Transition) else Fraction(0)
        for k, child in enumerate(comp):
            if isinstance(child, otio.schema.Transition):
                continue
            r = comp.range_of_child_at_index(k)
            a, b = lead + frames(r.start_time) - start_in, lead + frames(r.end_time_exclusive()) - start_in
            lo, hi = max(a, window[0]), min(b, window[1])
            if lo >= hi:
                continue
            if isinstance(child, (otio.schema.Stack, otio.schema.Track)):
                self.walk(child, origin + a, (lo - a, hi - a), z + [k])
                continue
            if not isinstance(child, otio.schema.Clip) or not child.enabled:
                continue
            before, after = self.handles(comp, k)
            in_h = before[0] if before else Fraction(0)
            out_h = after[1] if after else Fraction(0)
            ident, path = media_id(child)
            first, last = origin + lo - in_h, origin + hi + out_h
            self.clips.append({
                "name": child.name, "path": path or "", "black": ident is None,
                "start": float(origin + lo), "end": float(origin + hi), "segueStart": float(first), "segueEnd": float(last),
                "in": float(in_h), "out": float(out_h),
            })
            # A fade from nothing (a transition at the track's start) or to nothing (at its end): its frames and length.
            fade_in = (first, in_h + before[1]) if before and k == 1 else None
            fade_out = (origin + hi - after[0], after[0] + out_h) if after and k + 2 == len(comp) else None
            # Frames: the clip's own part, and its handles inside the transitions.
            n = math.ceil(first)
            while n < last:
                local = n - (origin + a)
                value = None if ident is None else (ident, self.media_frame(child, local))
                sample = {"z": z + [k], "value": value, "from": float(first), "in": float(in_h), "out": float(out_h)}
                if fade_in and n < fade_in[0] + fade_in[1]:
                    sample["fade"] = ("in", float((n - fade_in[0]) / fade_in[1]))
                if fade_out and n >= fade_out[0]:
                    sample["fade"] = ("out", float((n - fade_out[0]) / fade_out[1]))
                self.samples.setdefault(n, []).append(sample)
                n += 1

    def expected(self):
        total = frames(self.tl.duration())
        self.walk(self.tl.tracks, Fraction(0), (Fraction(0), total), [])
        out = []
        for n in range(int(math.floor(total + Fraction(1, 2)))):
            layers = sorted(self.samples.get(n, []), key=lambda s: s["z"])
            if not layers:
                out.append({"kind": "black"})
                continue
            top = layers[-1]
            same_track = [l for l in layers if l["z"][:-1] == top["z"][:-1]]
            if len(same_track) >= 2:
                # Inside a transition: the earlier item (outgoing) and the later one (incoming).
                a, b = same_track[-2], same_track[-1]
                if a["z"][-1] > b["z"][-1]:
                    a, b = b, a
                start, length = b["from"], b["in"] + a["out"]
                out.append({"kind": "mix", "from": a["value"], "to": b["value"], "progress": (n - start) / length})
            elif "fade" in top:
                # Over nothing: the oracle's edge transitions are on a timeline's only track.
                assert len(layers) == 1, "a fade over another track"
                way, p = top["fade"]
                v = None if top["value"] is None else list(top["value"])
                out.append({"kind": "mix", "from": None if way == "in" else v, "to": v if way == "in" else None, "progress": p})
            else:
                out.append({"kind": "black"} if top["value"] is None else {"kind": "frame", "clip": top["value"][0], "frame": top["value"][1]})
        return {"duration": float(total), "clips": self.clips, "frames": out}


def downgrade(o):
    """The JSON of a timeline in the schemas of the first OTIO releases: Sequence.1 for Track.1, Clip.1 (one
    media_reference) for Clip.2."""
    if isinstance(o, list):
        return [downgrade(x) for x in o]
    if not isinstance(o, dict):
        return o
    o = {k: downgrade(v) for k, v in o.items()}
    if o.get("OTIO_SCHEMA") == "Track.1":
        o["OTIO_SCHEMA"] = "Sequence.1"
    if o.get("OTIO_SCHEMA") == "Clip.2":
        o["OTIO_SCHEMA"] = "Clip.1"
        o["media_reference"] = o.pop("media_references")[o.pop("active_media_reference_key")]
    return o


def main():
    if sys.argv[1] == "make":
        media, out_dir = sys.argv[2], sys.argv[3]
        for name, tl in scenarios(media).items():
            path = os.path.join(out_dir, name + ".otio")
            otio.adapters.write_to_file(tl, path)
            if name == "old_schema":
                with open(path) as f:
                    old = downgrade(json.load(f))
                with open(path, "w") as f:
                    json.dump(old, f, indent=4)
            with open(os.path.join(out_dir, name + ".expected.json"), "w") as f:
                json.dump(Oracle(otio.adapters.read_from_file(path)).expected(), f)
    elif sys.argv[1] == "expect":
        print(json.dumps({p: Oracle(otio.adapters.read_from_file(p)).expected() for p in sys.argv[2:]}))


if __name__ == "__main__":
    main()
