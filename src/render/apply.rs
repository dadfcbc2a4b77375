//! `simulate --apply` (docs/apply.md): the manifests applied and, per Service they affect, its
//! before → after (verdict, reasons, zones, the controller's reaction), the certificate after the
//! change and the gate's verdict. Tables here; `-o markdown|junit|sarif` in `apply/ci.rs`;
//! `-o json|yaml` is the `ApplyReport` envelope.

use std::io::Write;

use super::style::Palette;
use super::wrap::paragraph;
use super::{Format, RenderOptions, dispatch};
use crate::escape::escape;
use crate::prose;
use crate::triage::FailOn;
use topo_engine::report::apply::{ApplyReport, ServiceApply};

mod ci;

/// What the gate decided, for the renderers that show it.
#[derive(Debug, Clone)]
pub(crate) struct ApplyContext {
    /// Per Service of the report: the change brings it to `fail_on`.
    pub failing: Vec<bool>,
    /// `--fail-on`.
    pub fail_on: FailOn,
    /// The manifest file a SARIF result is located in (the first `--apply` file; None for stdin
    /// or a directory).
    pub file: Option<String>,
}

/// Render `simulate --apply` (not the pictures: `app` draws the one Service's simulation).
pub(crate) fn render(
    report: &ApplyReport,
    context: &ApplyContext,
    options: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match options.format {
        Format::Markdown => ci::markdown(report, context, out),
        Format::Junit => ci::junit(report, context, out),
        Format::Sarif => ci::sarif(report, context, out),
        _ => dispatch(report, options, out, |r, o, w| table(r, context, o, w)),
    }
}

fn table(
    r: &ApplyReport,
    context: &ApplyContext,
    o: &RenderOptions,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let p = Palette::new(o.color);
    let basis = prose::version::header_suffix(r.kubernetes_version_basis.as_ref());
    let header = format!(
        "{}  · Kubernetes {} behaviour{}",
        p.heading("Apply manifests"),
        r.kubernetes_version,
        escape(&basis)
    );
    paragraph(out, o.wrap(), "", "  ", &header)?;
    let objects: Vec<String> = r.objects.iter().map(prose::apply::object).collect();
    paragraph(out, o.wrap(), "  applied: ", "    ", &objects.join(", "))?;
    if !r.node_changes.is_empty() {
        paragraph(out, o.wrap(), "  with: ", "    ", &escape(&r.node_changes.join(" ")))?;
    }
    let failing = context.failing.iter().filter(|f| **f).count();
    paragraph(
        out,
        o.wrap(),
        "  ",
        "    ",
        &prose::apply::summary(r.services.len(), failing, context.fail_on),
    )?;
    for (s, failing) in r.services.iter().zip(&context.failing) {
        writeln!(out)?;
        service(s, *failing, context.fail_on, o, &p, out)?;
    }
    Ok(())
}

fn service(
    s: &ServiceApply,
    failing: bool,
    fail_on: FailOn,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let name = format!("Service {}/{}", escape(&s.service.namespace), escape(&s.service.name));
    let gate = prose::apply::gate(failing, fail_on);
    let gate = if failing { p.bad(&gate) } else { p.good(&gate) };
    paragraph(out, o.wrap(), "", "  ", &format!("{}  {gate}", p.heading(&name)))?;
    let why = format!("{} ({})", prose::apply::causes(&s.causes), prose::apply::change(s.change));
    paragraph(out, o.wrap(), "  affected: ", "    ", &why)?;
    for w in &s.workloads {
        paragraph(out, o.wrap(), "  workload: ", "    ", &prose::apply::workload(w))?;
    }
    super::simulate::controller(&s.simulation, o.wrap(), p, out)?;
    for family in &s.simulation.summary {
        writeln!(out)?;
        super::simulate::delta(family, o, p, out)?;
    }
    if let Some(c) = &s.certificate {
        super::stability::certificate(c, o, p, out)?;
    }
    if o.format == Format::Wide {
        writeln!(out, "\n{}\n", p.heading("After — explain of the changed cluster"))?;
        super::explain::render(&s.simulation.after, o, out)?;
    }
    Ok(())
}
