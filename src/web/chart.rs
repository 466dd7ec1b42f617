//! Charts in SVG, written here rather than drawn by a charting crate: a line over a few hundred
//! points with two labelled axes is a dozen elements, and written by hand it is deterministic to
//! the byte, needs no fonts or scripts, and takes its colours from the page's style sheet (light
//! and dark) — which the SVG backends of charting crates do not.

use maud::{Markup, html};

/// Width and height of the drawing, in its own units (it scales to the page).
const W: f64 = 600.0;
const H: f64 = 200.0;
/// Room for the axis labels.
const LEFT: f64 = 44.0;
const BOTTOM: f64 = 18.0;

fn fmt(x: f64) -> String {
    format!("{:.1}", x)
}

/// A line through `points` (x, y), its y axis labelled with the lowest and highest value,
/// `label` read out for screen readers. With `zero`, the y axis is centred on 0 (an advantage
/// graph, White above) and clipped to ±`zero`.
pub fn line(points: &[(f64, f64)], label: &str, zero: Option<f64>) -> Markup {
    let (lo, hi) = match zero {
        Some(z) => (-z, z),
        None => {
            let lo = points.iter().map(|p| p.1).fold(f64::MAX, f64::min);
            let hi = points.iter().map(|p| p.1).fold(f64::MIN, f64::max);
            if points.is_empty() {
                (0.0, 1.0)
            } else if hi - lo < 1.0 {
                (lo - 10.0, hi + 10.0)
            } else {
                (lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.05)
            }
        }
    };
    let x_max = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let x = |v: f64| LEFT + (v / x_max) * (W - LEFT - 4.0);
    let y = |v: f64| 4.0 + (hi - v.clamp(lo, hi)) / (hi - lo) * (H - BOTTOM - 8.0);
    let path: String = points
        .iter()
        .map(|(a, b)| format!("{},{}", fmt(x(*a)), fmt(y(*b))))
        .collect::<Vec<_>>()
        .join(" ");
    let label_value = |v: f64| match zero {
        Some(_) => format!("{v:+.0}"),
        None => format!("{v:.0}"),
    };
    html! {
        svg.chart xmlns="http://www.w3.org/2000/svg" viewBox={ "0 0 " (W) " " (H) }
            role="img" aria-label=(label) {
            line.axis x1=(LEFT) y1="4" x2=(LEFT) y2=(fmt(H - BOTTOM - 4.0)) {}
            line.axis x1=(LEFT) y1=(fmt(H - BOTTOM - 4.0)) x2=(W - 4.0) y2=(fmt(H - BOTTOM - 4.0)) {}
            @if zero.is_some() {
                line.zero x1=(LEFT) y1=(fmt(y(0.0))) x2=(W - 4.0) y2=(fmt(y(0.0))) {}
            }
            text.label x=(LEFT - 4.0) y="12" text-anchor="end" { (label_value(hi)) }
            text.label x=(LEFT - 4.0) y=(fmt(H - BOTTOM - 4.0)) text-anchor="end" { (label_value(lo)) }
            @if !points.is_empty() {
                polyline.series points=(path) {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_points_draw_the_same_bytes_and_stay_in_the_frame() {
        let points = [(0.0, 1200.0), (1.0, 1216.0), (2.0, 1190.5)];
        let a = line(&points, "Rating", None).into_string();
        assert_eq!(a, line(&points, "Rating", None).into_string());
        assert!(a.contains("polyline"), "{a}");
        let graph = line(&[(0.0, 9.0), (1.0, -40.0)], "Advantage", Some(5.0)).into_string();
        for n in graph
            .split(['"', ',', ' '])
            .filter_map(|s| s.parse::<f64>().ok())
        {
            assert!((-10.0..=W).contains(&n), "{n} outside the drawing: {graph}");
        }
        assert!(line(&[], "Nothing yet", None).into_string().contains("svg"));
    }
}
