// A tapered, swept half-wing of NACA 0012 sections in millimetres, its root on the symmetry plane
// y = 0, in a half-sphere of radius 50 spans, meshed in tetrahedra by Gmsh:
//   gmsh -3 -setnumber size 20 wing.geo -o wing_20.msh
// Root chord 1000 mm, tip chord 500 mm (taper 0.5), semi-span 2000 mm, leading edge swept by 30
// degrees, no twist or dihedral; the trailing edge closed by the thickness coefficient -0.1036 in
// place of -0.1015. `size` is the cells' edge length on the wing in millimetres; it grows with
// the distance d from the wing as size + d / 4, so that a smaller `size` refines near the wing
// first (size 12: 218,688 tetrahedra). Physical names: "wing", "symmetry", "farfield", "fluid".
// Written for Gmsh 4.8 (Debian 12): its Distance field takes FacesList and NNodesByEdge.
SetFactory("OpenCASCADE");
DefineConstant[ size = {20.0, Name "edge length on the wing (mm)"} ];

rootChord = 1000.0;
tipChord = 500.0;
semiSpan = 2000.0;
sweep = 30.0 * Pi / 180.0;
radius = 50.0 * semiSpan;

// Each section: a closed wire of the upper spline from the leading to the trailing edge and the
// lower one back, through
// points clustered at both edges (cosine spacing).
points = 80;
Macro Section
  For i In {0:points}
    xc = 0.5 * (1 - Cos(Pi * i / points));
    t = 0.6 * (0.2969 * Sqrt(xc) - 0.1260 * xc - 0.3516 * xc^2 + 0.2843 * xc^3 - 0.1036 * xc^4);
    up[i] = newp; Point(up[i]) = {lead + chord * xc, span, chord * t};
    If (i == 0 || i == points)
      low[i] = up[i];
    Else
      low[i] = newp; Point(low[i]) = {lead + chord * xc, span, -chord * t};
    EndIf
  EndFor
  upperCurve = newc; Spline(upperCurve) = up[{0:points}];
  lowerCurve = newc; Spline(lowerCurve) = low[{points:0:-1}];
  section = newll; Curve Loop(section) = {upperCurve, lowerCurve};
Return

// The root section a little inside y < 0, on the same planform, so that the wing crosses the
// symmetry plane and the cut there is a clean intersection rather than two coincident faces.
span = -0.05 * rootChord;
lead = span * Tan(sweep); chord = rootChord + (tipChord - rootChord) * span / semiSpan;
Call Section;
root = section;
lead = semiSpan * Tan(sweep); chord = tipChord; span = semiSpan;
Call Section;
tip = section;
ThruSections(1) = {root, tip};
wing[] = {1};

// The half-sphere y >= 0 around the wing's mid-chord, less the wing.
centre = 0.5 * rootChord;
Sphere(100) = {centre, 0, 0, radius};
Box(101) = {centre - radius, 0, -radius, 2 * radius, radius, 2 * radius};
half[] = BooleanIntersection{ Volume{100}; Delete; }{ Volume{101}; Delete; };
fluid[] = BooleanDifference{ Volume{half[0]}; Delete; }{ Volume{wing[0]}; Delete; };

eps = 1e-3;
symmetry[] = Surface In BoundingBox{centre - radius - 1, -eps, -radius - 1,
                                    centre + radius + 1, eps, radius + 1};
// Whatever lies within a tenth of the root chord of the wing's box: OpenCASCADE boxes a trimmed
// spline surface by the whole surface, here the part of the wing cut off below y = 0 too.
margin = 0.1 * rootChord;
wingSurfaces[] = Surface In BoundingBox{-margin, -margin, -0.2 * rootChord,
                                        semiSpan * Tan(sweep) + tipChord + margin,
                                        semiSpan + margin, 0.2 * rootChord};
wingSurfaces[] -= symmetry[];
all[] = Boundary{ Volume{fluid[0]}; };
farfield[] = all[];
farfield[] -= symmetry[];
farfield[] -= wingSurfaces[];

Physical Surface("wing") = wingSurfaces[];
Physical Surface("symmetry") = symmetry[];
Physical Surface("farfield") = farfield[];
Physical Volume("fluid") = fluid[0];

// Sizes from the distance to the wing, not from the points or the curvature.
Field[1] = Distance;
Field[1].FacesList = {wingSurfaces[]};
Field[1].NNodesByEdge = 50;
Field[2] = MathEval;
Field[2].F = Sprintf("%g + F1 / 4", size);
Background Field = 2;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeMax = radius / 4;
Mesh.Algorithm = 6;   // Frontal-Delaunay on the surfaces
Mesh.Algorithm3D = 10; // HXT in the volume
Mesh.Optimize = 1;
