//! TopoJSON → GeoJSON (the subset world-atlas uses: quantised, delta-encoded arcs; Point,
//! MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon and GeometryCollection).

use serde_json::{json, Map, Value};

/// Why a topology could not be read.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TopoError {
    #[error("not a TopoJSON topology: {0}")]
    Malformed(&'static str),
    #[error("the topology has no object named '{0}'")]
    NoObject(String),
}

/// Decimal places kept in output coordinates (about 1 m).
const PRECISION: f64 = 1e5;

struct Topology {
    arcs: Vec<Vec<[f64; 2]>>,
    transform: Option<([f64; 2], [f64; 2])>,
}

fn pair(v: &Value) -> Option<[f64; 2]> {
    let a = v.as_array()?;
    Some([a.first()?.as_f64()?, a.get(1)?.as_f64()?])
}

fn round(v: f64) -> f64 {
    (v * PRECISION).round() / PRECISION
}

impl Topology {
    fn read(topology: &Value) -> Result<Self, TopoError> {
        if topology["type"] != "Topology" {
            return Err(TopoError::Malformed("type is not Topology"));
        }
        let transform = match topology.get("transform") {
            Some(t) => Some((
                pair(&t["scale"]).ok_or(TopoError::Malformed("bad transform scale"))?,
                pair(&t["translate"]).ok_or(TopoError::Malformed("bad transform translate"))?,
            )),
            None => None,
        };
        let raw = topology["arcs"]
            .as_array()
            .ok_or(TopoError::Malformed("no arcs"))?;
        let mut arcs = Vec::with_capacity(raw.len());
        for arc in raw {
            let points = arc.as_array().ok_or(TopoError::Malformed("bad arc"))?;
            let mut out = Vec::with_capacity(points.len());
            let (mut x, mut y) = (0.0, 0.0);
            for p in points {
                let [px, py] = pair(p).ok_or(TopoError::Malformed("bad arc point"))?;
                match transform {
                    Some(([sx, sy], [tx, ty])) => {
                        x += px;
                        y += py;
                        out.push([round(x * sx + tx), round(y * sy + ty)]);
                    }
                    None => out.push([round(px), round(py)]),
                }
            }
            arcs.push(out);
        }
        Ok(Topology { arcs, transform })
    }

    fn point(&self, v: &Value) -> Result<Value, TopoError> {
        let [x, y] = pair(v).ok_or(TopoError::Malformed("bad point"))?;
        let (x, y) = match self.transform {
            Some(([sx, sy], [tx, ty])) => (x * sx + tx, y * sy + ty),
            None => (x, y),
        };
        Ok(json!([round(x), round(y)]))
    }

    /// A line from arc indexes (negative: the arc `!i` reversed).
    fn line(&self, indexes: &Value) -> Result<Vec<[f64; 2]>, TopoError> {
        let indexes = indexes
            .as_array()
            .ok_or(TopoError::Malformed("bad arc list"))?;
        let mut line: Vec<[f64; 2]> = Vec::new();
        for i in indexes {
            let i = i.as_i64().ok_or(TopoError::Malformed("bad arc index"))?;
            let (index, reversed) = if i < 0 { (!i, true) } else { (i, false) };
            let arc = usize::try_from(index)
                .ok()
                .and_then(|k| self.arcs.get(k))
                .ok_or(TopoError::Malformed("arc index out of range"))?;
            let mut points: Vec<[f64; 2]> = arc.clone();
            if reversed {
                points.reverse();
            }
            let skip = usize::from(!line.is_empty());
            line.extend(points.into_iter().skip(skip));
        }
        Ok(line)
    }

    fn lines(&self, v: &Value) -> Result<Vec<Vec<[f64; 2]>>, TopoError> {
        v.as_array()
            .ok_or(TopoError::Malformed("bad line list"))?
            .iter()
            .map(|l| self.line(l))
            .collect()
    }

    fn geometry(&self, g: &Value) -> Result<Value, TopoError> {
        let kind = g["type"].as_str().unwrap_or("");
        let coordinates = match kind {
            "Point" => self.point(&g["coordinates"])?,
            "MultiPoint" => Value::Array(
                g["coordinates"]
                    .as_array()
                    .ok_or(TopoError::Malformed("bad multipoint"))?
                    .iter()
                    .map(|p| self.point(p))
                    .collect::<Result<_, _>>()?,
            ),
            "LineString" => json!(self.line(&g["arcs"])?),
            "MultiLineString" | "Polygon" => json!(self.lines(&g["arcs"])?),
            "MultiPolygon" => json!(g["arcs"]
                .as_array()
                .ok_or(TopoError::Malformed("bad multipolygon"))?
                .iter()
                .map(|p| self.lines(p))
                .collect::<Result<Vec<_>, _>>()?),
            "GeometryCollection" => {
                let parts: Vec<Value> = g["geometries"]
                    .as_array()
                    .ok_or(TopoError::Malformed("bad geometry collection"))?
                    .iter()
                    .map(|p| self.geometry(p))
                    .collect::<Result<_, _>>()?;
                return Ok(json!({ "type": "GeometryCollection", "geometries": parts }));
            }
            _ => return Ok(Value::Null),
        };
        Ok(json!({ "type": kind, "coordinates": coordinates }))
    }

    fn feature(&self, g: &Value) -> Result<Value, TopoError> {
        let mut f = Map::new();
        f.insert("type".into(), json!("Feature"));
        if let Some(id) = g.get("id") {
            f.insert("id".into(), id.clone());
        }
        f.insert(
            "properties".into(),
            g.get("properties").cloned().unwrap_or_else(|| json!({})),
        );
        f.insert("geometry".into(), self.geometry(g)?);
        Ok(Value::Object(f))
    }
}

/// The features of `object` in `topology` for which `keep` holds, as a GeoJSON
/// FeatureCollection.
pub fn feature_collection(
    topology: &Value,
    object: &str,
    keep: impl Fn(&Value) -> bool,
) -> Result<Value, TopoError> {
    let topo = Topology::read(topology)?;
    let obj = topology["objects"]
        .get(object)
        .ok_or_else(|| TopoError::NoObject(object.to_string()))?;
    let geometries: Vec<&Value> = match obj["type"].as_str() {
        Some("GeometryCollection") => obj["geometries"]
            .as_array()
            .ok_or(TopoError::Malformed("bad geometries"))?
            .iter()
            .collect(),
        _ => vec![obj],
    };
    let features = geometries
        .into_iter()
        .filter(|g| keep(g))
        .map(|g| topo.feature(g))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({ "type": "FeatureCollection", "features": features }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Value {
        json!({
            "type": "Topology",
            "transform": { "scale": [0.5, 0.5], "translate": [10, 20] },
            "arcs": [
                [[0, 0], [2, 0], [0, 2]],
                [[2, 2], [-2, 0], [0, -2]]
            ],
            "objects": { "countries": { "type": "GeometryCollection", "geometries": [
                { "type": "Polygon", "id": "356", "properties": { "name": "India" }, "arcs": [[0, 1]] },
                { "type": "Polygon", "id": "1", "properties": { "name": "Other" }, "arcs": [[-2, -1]] },
                { "type": null, "id": "2", "properties": { "name": "Nothing" } }
            ]}}
        })
    }

    #[test]
    fn quantised_delta_arcs_become_a_closed_ring() {
        let fc = feature_collection(&square(), "countries", |g| g["id"] == "356").unwrap();
        assert_eq!(fc["type"], "FeatureCollection");
        assert_eq!(fc["features"].as_array().unwrap().len(), 1);
        let f = &fc["features"][0];
        assert_eq!(f["properties"]["name"], "India");
        assert_eq!(f["geometry"]["type"], "Polygon");
        assert_eq!(
            f["geometry"]["coordinates"],
            json!([[
                [10.0, 20.0],
                [11.0, 20.0],
                [11.0, 21.0],
                [10.0, 21.0],
                [10.0, 20.0]
            ]])
        );
    }

    #[test]
    fn reversed_arcs_run_backwards_and_null_geometries_stay_null() {
        let fc = feature_collection(&square(), "countries", |_| true).unwrap();
        let other = &fc["features"][1]["geometry"]["coordinates"][0];
        assert_eq!(other[0], json!([10.0, 20.0]));
        assert_eq!(other[1], json!([10.0, 21.0]));
        assert_eq!(fc["features"][2]["geometry"], Value::Null);
    }

    #[test]
    fn a_missing_object_or_a_non_topology_is_an_error() {
        assert_eq!(
            feature_collection(&square(), "land", |_| true).unwrap_err(),
            TopoError::NoObject("land".into())
        );
        assert!(feature_collection(&json!({"type": "FeatureCollection"}), "x", |_| true).is_err());
    }
}
