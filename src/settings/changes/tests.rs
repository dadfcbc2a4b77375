use super::*;
use topo_engine::model::CpuAmount;

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
            parse_spread(too_many).map_err(|e| e.to_string()),
            Err(format!("--spread {too_many:?}: at most 10000 endpoints in total")),
            "{too_many}"
        );
    }
    let negative = |text: &str, problem| WhatIfError::SetCpu { text: text.into(), problem };
    assert_eq!(parse_set_cpu("n1=-1"), Err(negative("n1=-1", CpuProblem::Negative)));
    let text = "zone=z,cpu=-500m";
    assert_eq!(
        parse_add_node(text),
        Err(WhatIfError::AddNode { text: text.into(), problem: NodeProblem::NegativeCpu })
    );
    let node = parse_add_node("zone=z1,cpu=1500m,control-plane,not-ready,name=n9").unwrap();
    assert_eq!(node.cpu, CpuAmount::from_millis(1500));
    assert!(node.control_plane && node.not_ready);
    assert_eq!((node.zone.as_str(), node.name.as_deref()), ("z1", Some("n9")));
    assert_eq!(parse_set_cpu("n1=2"), Ok(("n1".to_string(), CpuAmount::from_millis(2000))));
    assert_eq!(parse_mode("none"), Ok(ModeChoice::None));
    assert_eq!(parse_mode("PreferClose"), Ok(ModeChoice::PreferClose));
    assert_eq!(parse_mode("preferclose"), Ok(ModeChoice::PreferClose), "any case, as check --mode");
    assert!(parse_mode("close").is_err());
    assert_eq!(parse_traffic("a=50,b=30").unwrap().len(), 2);
    let huge = parse_traffic("a=1e308,b=1e308,c=5e307").unwrap();
    assert_eq!(huge.values().copied().collect::<Vec<_>>(), [1.0, 1.0, 0.5], "ratios kept, sum finite");
    assert!(parse_traffic("a=0").is_err() && parse_traffic("a=-1").is_err() && parse_traffic("a").is_err());
    // A zone may send no requests, as long as some zone sends some.
    assert_eq!(parse_traffic("a=0,b=2").unwrap()["a"], 0.0);
}

/// Every message is one line naming the flag and the value, worded as the CLI has always printed it.
#[test]
fn each_error_is_the_one_line_the_user_sees() {
    let message = |result: Result<(), WhatIfError>| result.unwrap_err().to_string();
    let cases: &[(String, &str)] = &[
        (message(parse_replicas("x").map(drop)), r#"--replicas "x": use a whole number from 0 to 10000"#),
        (
            message(parse_spread("zone=a").map(drop)),
            r#"--spread "zone=a": use `even` or `zone=ZONE:N,ZONE:N`"#,
        ),
        (
            message(parse_spread("a:10001").map(drop)),
            r#"--spread "a:10001": at most 10000 endpoints in total"#,
        ),
        (message(parse_add_node("zone=a").map(drop)), r#"--add-node "zone=a": cpu=Q is required"#),
        (message(parse_add_node("cpu=4").map(drop)), r#"--add-node "cpu=4": zone=Z is required"#),
        (
            message(parse_add_node("zone=a,cpu=4,gpu").map(drop)),
            r#"--add-node "zone=a,cpu=4,gpu": unknown part "gpu" (use zone=Z,cpu=Q[,control-plane][,not-ready][,name=N])"#,
        ),
        (
            message(parse_add_node("zone=a,cpu=x").map(drop)),
            r#"--add-node "zone=a,cpu=x": invalid CPU quantity "x""#,
        ),
        (
            message(parse_add_node("zone=a,cpu=-1").map(drop)),
            r#"--add-node "zone=a,cpu=-1": cpu must not be negative"#,
        ),
        (message(parse_set_cpu("node-a").map(drop)), r#"--set-cpu "node-a": use NODE=QUANTITY"#),
        (message(parse_set_cpu("n=lots").map(drop)), r#"--set-cpu "n=lots": invalid CPU quantity "lots""#),
        (message(parse_set_cpu("n=-2").map(drop)), r#"--set-cpu "n=-2": CPU must not be negative"#),
        (
            message(parse_mode("automatic").map(drop)),
            r#"--mode "automatic": use Auto, PreferClose, PreferSameZone, PreferSameNode or None"#,
        ),
        (
            message(parse_traffic("a=x").map(drop)),
            r#"--traffic "a=x": use ZONE=WEIGHT,ZONE=WEIGHT with weights of 0 or more (0: no requests from that zone), at least one above 0"#,
        ),
        (message(Err(WhatIfError::TrafficZone { zone: "z".into() })), r#"--traffic: no node is in zone "z""#),
        (
            message(Err(WhatIfError::NoChange)),
            "simulate needs a change: --replicas, --spread, --remove-node, --remove-zone, --not-ready, \
             --add-node, --set-cpu or --mode",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
    }
}
