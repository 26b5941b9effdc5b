//! GPU time per pass: timestamp queries written at the start and end of every render
//! pass of a frame (each slang pass, the mipmaps generated for a pass's output, the
//! stretch to the viewport), read back a few frames later and summed up per pass.
//!
//! A frame's timestamps go into one of [`SLOTS`] query sets, resolved into a buffer at
//! the end of the frame's commands; a slot is read back (a wait for the GPU) only when
//! it comes round again, by which time its frame has long finished, so timing keeps
//! frames in flight as an untimed chain does. The first frame of a run is left out of
//! the figures when there are others (it is the one that finds caches cold).
//!
//! **Invariant:** never panics; a device without timestamp queries is a diagnostic,
//! never a silent zero; memory is bounded by the chain's pass count, not the frames.

use super::device::Gpu;
use crate::codes;
use grammar::Diagnostic;
use std::collections::BTreeMap;

/// Query sets in the ring: frames whose timestamps may be in flight at once.
pub const SLOTS: usize = 4;

/// What one timed span of a frame covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Span {
    /// Slang pass `n` (its one draw).
    Pass(usize),
    /// The mipmaps generated for pass `n`'s output (one draw per level after the first).
    Mipmaps(usize),
    /// The stock pass that stretches a scaled last pass to the viewport.
    Stretch,
}

/// The start and end timestamp slots of a span, for [`super::pipeline::begin`].
#[derive(Clone, Debug)]
pub struct SpanQueries {
    set: wgpu::QuerySet,
    begin: u32,
    end: u32,
}

impl SpanQueries {
    /// The timestamp writes of a render pass that both starts and ends the span.
    pub fn whole(&self) -> wgpu::RenderPassTimestampWrites<'_> {
        self.at(Some(self.begin), Some(self.end))
    }

    /// The timestamp writes of a render pass that starts the span (`first`), ends it
    /// (`last`) or both; `None` for a pass inside the span (wgpu refuses writes that
    /// name no query).
    pub fn writes(&self, first: bool, last: bool) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        (first || last).then(|| self.at(first.then_some(self.begin), last.then_some(self.end)))
    }

    fn at(&self, begin: Option<u32>, end: Option<u32>) -> wgpu::RenderPassTimestampWrites<'_> {
        wgpu::RenderPassTimestampWrites {
            query_set: &self.set,
            beginning_of_pass_write_index: begin,
            end_of_pass_write_index: end,
        }
    }
}

/// Statistics of one span over the frames timed, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stat {
    pub frames: u64,
    pub mean_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Accumulator {
    frames: u64,
    sum: f64,
    min: f64,
    max: f64,
}

impl Accumulator {
    fn add(&mut self, ms: f64) {
        if self.frames == 0 {
            (self.min, self.max) = (ms, ms);
        } else {
            (self.min, self.max) = (self.min.min(ms), self.max.max(ms));
        }
        self.frames += 1;
        self.sum += ms;
    }

    fn stat(&self) -> Stat {
        let mean_ms = if self.frames == 0 { 0.0 } else { self.sum / self.frames as f64 };
        Stat { frames: self.frames, mean_ms, min_ms: self.min, max_ms: self.max }
    }
}

/// What [`PassTimer::finish`] measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timings {
    /// Frames rendered while timing.
    pub frames_rendered: u64,
    /// Frames in the figures (the first is left out when there are others).
    pub frames_timed: u64,
    /// Every span, in the order the chain draws them.
    pub spans: Vec<(Span, Stat)>,
    /// From the start of a frame's first timed pass to the end of its last: the GPU's
    /// time for the frame, the gaps between passes (barriers, idle) included.
    pub frame: Stat,
    /// From the end of a frame's last timed pass to the start of the next frame's
    /// first (both timed): the time the GPU spends between frames.
    pub between_frames: Stat,
}

impl Timings {
    /// The mean sum of the spans per frame: the frame's time without its gaps.
    pub fn spans_mean_ms(&self) -> f64 {
        self.spans.iter().map(|(_, s)| s.mean_ms).sum()
    }
}

struct Slot {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
    /// The spans written this slot's frame, with their query indices.
    spans: Vec<(Span, u32, u32)>,
    /// The frame whose timestamps are on the way back, when there is one.
    pending: Option<u64>,
    /// The submission that carries them (see [`PassTimer::submitted`]).
    submission: Option<wgpu::SubmissionIndex>,
}

/// Timestamp queries around a chain's render passes, frame after frame.
pub struct PassTimer {
    slots: Vec<Slot>,
    /// Queries per frame (two per span).
    capacity: u32,
    /// Nanoseconds per timestamp tick.
    period_ns: f64,
    current: usize,
    frames: u64,
    stats: BTreeMap<Span, Accumulator>,
    frame: Accumulator,
    between_frames: Accumulator,
    /// The last frame read back, and the tick its last span ended at.
    previous_end: Option<(u64, u64)>,
}

impl PassTimer {
    /// A timer for frames of at most `spans` timed spans. `E0711` when the device cannot
    /// write timestamps in render passes.
    pub fn new(gpu: &Gpu, spans: usize) -> Result<PassTimer, Diagnostic> {
        if !gpu.features.contains(wgpu::Features::TIMESTAMP_QUERY) {
            return Err(Diagnostic::error(
                codes::E_CHAIN_NO_TIMESTAMPS,
                format!("`{}` cannot time passes: it has no timestamp queries", gpu.info.name),
            ));
        }
        let capacity =
            u32::try_from(spans.max(1) * 2).ok().filter(|&c| c <= wgpu::QUERY_SET_MAX_QUERIES).ok_or_else(|| {
                Diagnostic::error(codes::E_CHAIN_NO_TIMESTAMPS, format!("{spans} passes are too many to time"))
            })?;
        let bytes = u64::from(capacity) * wgpu::QUERY_SIZE as u64;
        let slots = gpu.scoped("creating the timestamp queries", || {
            (0..SLOTS)
                .map(|_| Slot {
                    set: gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
                        label: Some("pass timestamps"),
                        ty: wgpu::QueryType::Timestamp,
                        count: capacity,
                    }),
                    resolve: gpu.device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some("timestamps resolved"),
                        size: bytes,
                        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                        mapped_at_creation: false,
                    }),
                    readback: gpu.device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some("timestamps read back"),
                        size: bytes,
                        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    }),
                    spans: Vec::new(),
                    pending: None,
                    submission: None,
                })
                .collect::<Vec<_>>()
        })?;
        Ok(PassTimer {
            slots,
            capacity,
            period_ns: f64::from(gpu.queue.get_timestamp_period()),
            current: 0,
            frames: 0,
            stats: BTreeMap::new(),
            frame: Accumulator::default(),
            between_frames: Accumulator::default(),
            previous_end: None,
        })
    }

    /// Starts a frame's spans: takes the next slot, reading back the frame it last held.
    pub fn begin_frame(&mut self, gpu: &Gpu) -> Result<(), Diagnostic> {
        self.current = (self.current + 1) % self.slots.len();
        self.collect(gpu, self.current)?;
        if let Some(slot) = self.slots.get_mut(self.current) {
            slot.spans.clear();
        }
        Ok(())
    }

    /// The queries of the next span of this frame; `None` once the frame's queries are
    /// used up (the span is then not timed).
    pub fn span(&mut self, span: Span) -> Option<SpanQueries> {
        let slot = self.slots.get_mut(self.current)?;
        let begin = u32::try_from(slot.spans.len() * 2).ok().filter(|&b| b + 1 < self.capacity)?;
        slot.spans.push((span, begin, begin + 1));
        Some(SpanQueries { set: slot.set.clone(), begin, end: begin + 1 })
    }

    /// Ends the frame's commands: its timestamps resolved and copied for reading back.
    /// Call after the frame's last render pass and before submitting `encoder`.
    pub fn end_frame(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let frame = self.frames;
        self.frames += 1;
        let Some(slot) = self.slots.get_mut(self.current) else { return };
        let used = (slot.spans.len() * 2) as u32;
        if used == 0 {
            return;
        }
        encoder.resolve_query_set(&slot.set, 0..used, &slot.resolve, 0);
        encoder.copy_buffer_to_buffer(&slot.resolve, 0, &slot.readback, 0, u64::from(used) * wgpu::QUERY_SIZE as u64);
        slot.pending = Some(frame);
    }

    /// Records the submission that carries the frame [`PassTimer::end_frame`] ended, so
    /// that reading it back waits for that submission alone, never for later frames
    /// (which would leave the GPU idle between frames and skew what is measured).
    pub fn submitted(&mut self, submission: wgpu::SubmissionIndex) {
        if let Some(slot) = self.slots.get_mut(self.current) {
            slot.submission = Some(submission);
        }
    }

    /// Reads back every frame still pending and returns the figures.
    pub fn finish(&mut self, gpu: &Gpu) -> Result<Timings, Diagnostic> {
        let mut order: Vec<(u64, usize)> =
            self.slots.iter().enumerate().filter_map(|(i, s)| s.pending.map(|f| (f, i))).collect();
        order.sort_unstable();
        for (_, i) in order {
            self.collect(gpu, i)?;
        }
        let mut spans: Vec<(Span, Stat)> = self.stats.iter().map(|(s, a)| (*s, a.stat())).collect();
        spans.sort_by_key(|(s, _)| draw_order(*s));
        Ok(Timings {
            frames_rendered: self.frames,
            frames_timed: self.frame.frames,
            spans,
            frame: self.frame.stat(),
            between_frames: self.between_frames.stat(),
        })
    }

    /// Reads slot `i`'s frame back into the statistics, if it holds one.
    fn collect(&mut self, gpu: &Gpu, i: usize) -> Result<(), Diagnostic> {
        let Some(slot) = self.slots.get_mut(i) else { return Ok(()) };
        let Some(frame) = slot.pending.take() else { return Ok(()) };
        let used = slot.spans.len() * 2;
        let (tx, rx) = std::sync::mpsc::channel();
        let range = 0..(used * wgpu::QUERY_SIZE as usize) as u64;
        slot.readback.map_async(wgpu::MapMode::Read, range.clone(), move |r| {
            let _ = tx.send(r);
        });
        match slot.submission.take() {
            Some(submission) => gpu.wait_for(submission)?,
            None => gpu.wait()?,
        }
        let mapped = match rx.try_recv() {
            Ok(r) => Ok(r),
            // Not called back yet: wait for everything submitted (rare).
            Err(_) => gpu.wait().map(|()| rx.recv())?,
        };
        if !matches!(mapped, Ok(Ok(()))) {
            return Err(Diagnostic::error(codes::E_CHAIN_GPU, "cannot map the timestamp buffer"));
        }
        let ticks: Vec<u64> = {
            let view = slot
                .readback
                .get_mapped_range(range)
                .map_err(|e| Diagnostic::error(codes::E_CHAIN_GPU, format!("cannot map the timestamp buffer: {e}")))?;
            view.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]))).collect()
        };
        slot.readback.unmap();
        let ms = |ticks: u64| ticks as f64 * self.period_ns / 1e6;
        let ends = slot.spans.iter().filter_map(|&(_, b, e)| Some((*ticks.get(b as usize)?, *ticks.get(e as usize)?)));
        let (first, last) = ends.fold((u64::MAX, 0), |(f, l), (b, e)| (f.min(b), l.max(e)));
        let previous = self.previous_end.replace((frame, last));
        // The first frame finds caches cold: left out when others follow.
        if (frame == 0 && self.frames > 1) || first > last {
            return Ok(());
        }
        for &(span, b, e) in &slot.spans {
            let (Some(&tb), Some(&te)) = (ticks.get(b as usize), ticks.get(e as usize)) else { continue };
            self.stats.entry(span).or_default().add(ms(te.saturating_sub(tb)));
        }
        self.frame.add(ms(last - first));
        if let Some((_, end)) = previous.filter(|&(p, _)| p + 1 == frame) {
            self.between_frames.add(ms(first.saturating_sub(end)));
        }
        Ok(())
    }
}

/// The order the chain draws spans in: pass `n`, then its mipmaps; the stretch last.
fn draw_order(span: Span) -> (usize, u8) {
    match span {
        Span::Pass(n) => (n, 0),
        Span::Mipmaps(n) => (n, 1),
        Span::Stretch => (usize::MAX, 0),
    }
}

/// Timing lines for a terminal: one per span (`names` labels pass `n`: its shader),
/// then the sum of the spans, the frame, and the time between passes.
pub fn format_table(t: &Timings, adapter: &str, names: &[String]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let left_out = t.frames_rendered - t.frames_timed;
    let _ = writeln!(
        out,
        "GPU time per frame on {adapter}: {} of {} frames timed{}",
        t.frames_timed,
        t.frames_rendered,
        if left_out > 0 { " (the first left out: cold caches)" } else { "" }
    );
    let _ = writeln!(out, "{:<16} {:>9} {:>9} {:>9}  shader", "span", "mean ms", "min ms", "max ms");
    let row = |out: &mut String, label: &str, s: &Stat, name: &str| {
        let line = format!("{label:<16} {:>9.4} {:>9.4} {:>9.4}  {name}", s.mean_ms, s.min_ms, s.max_ms);
        let _ = writeln!(out, "{}", line.trim_end());
    };
    for (span, s) in &t.spans {
        let (label, name) = match span {
            Span::Pass(n) => (format!("pass {n}"), names.get(*n).map_or("", String::as_str)),
            Span::Mipmaps(n) => (format!("pass {n} mipmaps"), ""),
            Span::Stretch => ("stretch".to_string(), "(the stock pass to the viewport)"),
        };
        row(&mut out, &label, s, name);
    }
    let _ = writeln!(out, "{:<16} {:>9.4}", "all spans", t.spans_mean_ms());
    row(&mut out, "frame", &t.frame, "(first start to last end)");
    let _ = writeln!(out, "{:<16} {:>9.4}  (frame - all spans)", "between passes", t.frame.mean_ms - t.spans_mean_ms());
    if t.between_frames.frames > 0 {
        row(&mut out, "between frames", &t.between_frames, "(a frame's start - the last one's end)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accumulators_give_mean_min_and_max() {
        let mut a = Accumulator::default();
        for ms in [2.0, 1.0, 3.0] {
            a.add(ms);
        }
        assert_eq!(a.stat(), Stat { frames: 3, mean_ms: 2.0, min_ms: 1.0, max_ms: 3.0 });
        assert_eq!(Accumulator::default().stat().mean_ms, 0.0);
    }

    #[test]
    fn spans_sort_in_draw_order() {
        let mut spans = vec![Span::Stretch, Span::Mipmaps(1), Span::Pass(2), Span::Pass(1), Span::Pass(0)];
        spans.sort_by_key(|s| draw_order(*s));
        assert_eq!(spans, vec![Span::Pass(0), Span::Pass(1), Span::Mipmaps(1), Span::Pass(2), Span::Stretch]);
    }

    #[test]
    fn the_table_names_passes_and_the_gaps() {
        let s = |ms: f64| Stat { frames: 2, mean_ms: ms, min_ms: ms, max_ms: ms };
        let t = Timings {
            frames_rendered: 3,
            frames_timed: 2,
            spans: vec![(Span::Pass(0), s(1.0)), (Span::Mipmaps(0), s(0.25)), (Span::Pass(1), s(0.5))],
            frame: s(2.0),
            between_frames: s(0.125),
        };
        let text = format_table(&t, "GPU", &["a.slang".into(), "b.slang".into()]);
        assert!(text.contains("2 of 3 frames timed (the first left out"), "{text}");
        let line = |start: &str| text.lines().find(|l| l.starts_with(start)).unwrap_or_default().to_string();
        assert!(line("pass 0 ").ends_with("1.0000  a.slang"), "{text}");
        assert!(line("pass 0 mipmaps").ends_with("0.2500"), "{text}");
        assert!(line("pass 1 ").ends_with("0.5000  b.slang"), "{text}");
        assert!(line("all spans").ends_with("1.7500"), "{text}");
        assert!(line("between passes").contains(" 0.2500 "), "{text}");
        assert!(line("between frames").contains(" 0.1250 "), "{text}");
    }
}
