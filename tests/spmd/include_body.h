! Read through the INCLUDE of include_main.f90: a shift across the
! blocks, an element on its owner, and a scalar every rank computes.
  DO I = 2, N
    B(I) = A(I-1) + A(I)
  END DO
  B(1) = A(N)
  X = A(N/2) + B(3)
