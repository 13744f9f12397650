#include <QtTest>
int main() {}
