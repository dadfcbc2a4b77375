use crate::core::whatif::changes::*;
use crate::model::CpuAmount;

#[test]
fn describe_lists_changes_in_the_order_applied() {
    let changes = Changes {
        replicas: Some(5),
        spread: Some(SpreadSpec::Even),
        remove_zones: vec!["d".into()],
        set_cpu: vec![("n1".into(), CpuAmount::from_millis(500))],
        mode: Some(ModeChoice::PreferSameZone),
        ..Changes::default()
    };
    assert_eq!(
        changes.describe(),
        ["--remove-zone d", "--set-cpu n1=500m", "--mode PreferSameZone", "--replicas 5", "--spread even"]
    );
    assert!(Changes::default().is_empty() && !changes.is_empty());
}
