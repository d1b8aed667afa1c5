use table_runtime::{TableEntity, Value};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Customers", partition_key = "{region}", row_key = "cust_{customer_id:08}")]
struct Customer {
    region: String,
    customer_id: u32,
    #[table(rename = "DisplayName", max_len = 64)]
    name: String,
    #[table(skip)]
    cached_score: Option<f64>,
    #[table(json)]
    tags: Vec<String>,
    #[table(as_string)]
    loyalty_points: u64,
    #[table(as_string)]
    last_ip: std::net::IpAddr,
}

fn main() {
    let c = Customer {
        region: "emea".into(),
        customer_id: 12,
        name: "Contoso".into(),
        cached_score: Some(0.5),
        tags: vec!["gold".into()],
        loyalty_points: u64::MAX,
        last_ip: "10.0.0.1".parse().unwrap(),
    };
    assert_eq!(c.row_key().unwrap(), "cust_00000012");
    let entity = c.to_entity().unwrap();
    assert_eq!(entity.get("DisplayName"), Some(&Value::String("Contoso".into())));
    assert_eq!(entity.get("tags"), Some(&Value::String("[\"gold\"]".into())));
    assert_eq!(entity.get("loyalty_points"), Some(&Value::String(u64::MAX.to_string())));
    assert_eq!(entity.get("cached_score"), None);
    let back = Customer::from_entity(&entity).unwrap();
    assert_eq!(back, Customer { cached_score: None, ..c });
}
