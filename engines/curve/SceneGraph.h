#pragma once
/// Scene graphs of the curve-scene-graph panel: objects with attributes (agents, background
/// objects, one weather node), labelled directed relations between agents, an environment id
/// and a split. Plain data; units are metres and metres per second.
#include <string>
#include <vector>

namespace pl::curve {

/// Object types. Agents are car, pedestrian, cyclist; background and weather are context nodes
/// (edges from them to agents are the "context" relations that may be spurious).
enum class ObjectType { Car = 0, Pedestrian = 1, Cyclist = 2, Background = 3, Weather = 4 };
constexpr int kObjectTypes = 5;
const char* toString(ObjectType t);
/// Parses "car" | "pedestrian" | "cyclist" | "background" | "weather"; false if unknown.
bool objectTypeFromString(const std::string& s, ObjectType* out);
inline bool isAgent(ObjectType t) {
    return int(t) <= 2;
}

/// Relation classes predicted for every ordered agent pair (i -> j).
enum Relation { None = 0, Approaching = 1, Following = 2 };
constexpr int kRelations = 3;
const char* relationName(int r);
/// Parses "none" | "approaching" | "following"; -1 if unknown.
int relationFromString(const std::string& s);

/// Where a scene is used.
enum class Split { Train = 0, TestId = 1, TestOod = 2, Target = 3 };
const char* toString(Split s);
bool splitFromString(const std::string& s, Split* out);

struct SceneObject {
    std::string id;
    ObjectType type = ObjectType::Car;
    double x = 0, y = 0;   ///< position (m); ignored for weather
    double vx = 0, vy = 0; ///< velocity (m/s); 0 for background and weather
    double rain = 0;       ///< weather attribute: 1 = rain, 0 = dry
};

struct SceneRelation {
    int source = 0; ///< index into Scene::objects (an agent)
    int target = 0; ///< index into Scene::objects (an agent)
    int relation = Relation::None;
};

struct Scene {
    std::vector<SceneObject> objects;
    std::vector<SceneRelation> relations; ///< non-"none" relations; every other agent pair is none
    int env = 0;                          ///< index into SceneSet::envNames
    Split split = Split::Train;
    /// Relation of the ordered agent pair (i, j) (None when not listed).
    int relationOf(int i, int j) const;
};

struct SceneSet {
    std::vector<Scene> scenes;
    std::vector<std::string> envNames;
};

} // namespace pl::curve
