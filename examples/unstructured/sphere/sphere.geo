// A sphere of diameter 1 (centred at the origin) in a half-sphere of radius 50 diameters, cut by
// the symmetry plane y = 0, meshed in tetrahedra by Gmsh 4.8:
//   gmsh -3 -setnumber size 0.05 sphere.geo -o sphere_0.05.msh
// `size` is the cells' edge length on the sphere; it grows with the distance d from it as
// size + d / 4. Physical names: "sphere", "symmetry", "farfield", "fluid".
SetFactory("OpenCASCADE");
DefineConstant[ size = {0.05, Name "edge length on the sphere"} ];

radius = 0.5;
farRadius = 50.0;
Sphere(1) = {0, 0, 0, radius};
Sphere(2) = {0, 0, 0, farRadius};
Box(3) = {-farRadius, 0, -farRadius, 2 * farRadius, farRadius, 2 * farRadius};
shell[] = BooleanDifference{ Volume{2}; Delete; }{ Volume{1}; Delete; };
fluid[] = BooleanIntersection{ Volume{shell[0]}; Delete; }{ Volume{3}; Delete; };

eps = 1e-6;
symmetry[] = Surface In BoundingBox{-farRadius - 1, -eps, -farRadius - 1,
                                    farRadius + 1, eps, farRadius + 1};
body[] = Surface In BoundingBox{-radius - 0.01, -0.01, -radius - 0.01,
                                radius + 0.01, radius + 0.01, radius + 0.01};
body[] -= symmetry[];
all[] = Boundary{ Volume{fluid[0]}; };
farfield[] = all[];
farfield[] -= symmetry[];
farfield[] -= body[];

Physical Surface("sphere") = body[];
Physical Surface("symmetry") = symmetry[];
Physical Surface("farfield") = farfield[];
Physical Volume("fluid") = fluid[0];

Field[1] = Distance;
Field[1].FacesList = {body[]};
Field[1].NNodesByEdge = 50;
Field[2] = MathEval;
Field[2].F = Sprintf("%g + F1 / 4", size);
Background Field = 2;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeMax = farRadius / 4;
Mesh.Algorithm = 6;
Mesh.Algorithm3D = 10;
Mesh.Optimize = 1;
