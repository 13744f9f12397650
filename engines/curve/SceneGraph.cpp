#include "curve/SceneGraph.h"

namespace pl::curve {

const char* toString(ObjectType t) {
    switch (t) {
    case ObjectType::Car:
        return "car";
    case ObjectType::Pedestrian:
        return "pedestrian";
    case ObjectType::Cyclist:
        return "cyclist";
    case ObjectType::Background:
        return "background";
    case ObjectType::Weather:
        return "weather";
    }
    return "car";
}

bool objectTypeFromString(const std::string& s, ObjectType* out) {
    for (int i = 0; i < kObjectTypes; ++i)
        if (s == toString(ObjectType(i))) {
            *out = ObjectType(i);
            return true;
        }
    return false;
}

const char* relationName(int r) {
    switch (r) {
    case Approaching:
        return "approaching";
    case Following:
        return "following";
    default:
        return "none";
    }
}

int relationFromString(const std::string& s) {
    for (int r = 0; r < kRelations; ++r)
        if (s == relationName(r))
            return r;
    return -1;
}

const char* toString(Split s) {
    switch (s) {
    case Split::Train:
        return "train";
    case Split::TestId:
        return "test_id";
    case Split::TestOod:
        return "test_ood";
    case Split::Target:
        return "target";
    }
    return "train";
}

bool splitFromString(const std::string& s, Split* out) {
    for (int i = 0; i < 4; ++i)
        if (s == toString(Split(i))) {
            *out = Split(i);
            return true;
        }
    return false;
}

int Scene::relationOf(int i, int j) const {
    for (const SceneRelation& r : relations)
        if (r.source == i && r.target == j)
            return r.relation;
    return Relation::None;
}

} // namespace pl::curve
