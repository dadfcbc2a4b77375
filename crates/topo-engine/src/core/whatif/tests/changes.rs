use crate::core::whatif::changes::*;
use crate::model::CpuAmount;

#[test]
fn parses_every_change() {
    assert_eq!(parse_replicas("0"), Ok(0));
    assert!(parse_replicas("10001").is_err());
    assert_eq!(parse_spread("even"), Ok(SpreadSpec::Even));
    let zones = SpreadSpec::Zones([("a".to_string(), 3), ("b".to_string(), 1)].into());
    assert_eq!(parse_spread("zone=a:3,b:1"), Ok(zones.clone()));
    assert_eq!(parse_spread("a:3,b:1"), Ok(zones));
    assert!(parse_spread("zone=a:3,a:1").is_err());
    assert_eq!(parse_spread("a:10000"), Ok(SpreadSpec::Zones([("a".to_string(), 10_000)].into())));
    for too_many in ["a:5000,b:5001", "a:10001", "a:99999999999999999999"] {
        assert_eq!(
            parse_spread(too_many),
            Err(format!("--spread {too_many:?}: at most 10000 endpoints in total")),
            "{too_many}"
        );
    }
    assert!(parse_set_cpu("n1=-1").unwrap_err().contains("must not be negative"));
    assert!(parse_add_node("zone=z,cpu=-500m").unwrap_err().contains("must not be negative"));
    let node = parse_add_node("zone=z1,cpu=1500m,control-plane,not-ready,name=n9").unwrap();
    assert_eq!(node.cpu, CpuAmount::from_millis(1500));
    assert!(node.control_plane && node.not_ready);
    assert_eq!((node.zone.as_str(), node.name.as_deref()), ("z1", Some("n9")));
    assert_eq!(parse_set_cpu("n1=2"), Ok(("n1".to_string(), CpuAmount::from_millis(2000))));
    assert_eq!(parse_mode("none"), Ok(ModeChoice::None));
    assert!(parse_mode("PreferClose").is_err());
    assert_eq!(parse_traffic("a=50,b=30").unwrap().len(), 2);
    assert!(parse_traffic("a=0").is_err() && parse_traffic("a=-1").is_err() && parse_traffic("a").is_err());
}

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
