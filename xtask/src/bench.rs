use crate::plan::Size;
pub fn run(_n: &str, _s: Size, _r: usize, _d: bool) -> std::io::Result<()> {
    Ok(())
}
pub fn scale(_r: usize) -> std::io::Result<()> {
    Ok(())
}
